import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Transporter, TransportOptions } from 'nodemailer';
import type { Logger } from '../log/logger.ts';

/** One transactional e-mail (password reset, notices). */
export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

/**
 * The one way platform modules send transactional mail. With SMTP_URL set, over SMTP
 * (nodemailer); without it, each message is written as an .eml file under DATA_DIR/mail/ and its
 * path logged at info, so a newcomer running the embedded default can open it.
 */
export interface MailPort {
  send(message: MailMessage): Promise<void>;
}

export interface MailPortOptions {
  readonly smtpUrl: string | null;
  readonly from: string;
  readonly dataDir: string;
  readonly log: Logger;
}

/**
 * A nodemailer transport made on first use: nodemailer is loaded only by a process that sends
 * mail (a DNS worker never does, and need not carry it).
 */
function lazyTransport(
  options: string | TransportOptions | Record<string, unknown>,
): () => Promise<Transporter> {
  let made: Promise<Transporter> | null = null;
  return () =>
    (made ??= import('nodemailer').then((m) => m.default.createTransport(options as TransportOptions)));
}

export function createMailPort(options: MailPortOptions): MailPort {
  if (options.smtpUrl !== null) return new SmtpMailPort(options.smtpUrl, options.from);
  return new FileMailPort(path.join(options.dataDir, 'mail'), options.from, options.log);
}

class SmtpMailPort implements MailPort {
  private readonly transport: () => Promise<Transporter>;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    // A local relay without TLS is the common case in tests and behind a smarthost; STARTTLS is
    // used when the server offers it (smtps:// for implicit TLS).
    this.transport = lazyTransport(url);
  }

  async send(message: MailMessage): Promise<void> {
    await (
      await this.transport()
    ).sendMail({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
    });
  }
}

class FileMailPort implements MailPort {
  private readonly transport: () => Promise<Transporter>;

  constructor(
    private readonly dir: string,
    private readonly from: string,
    private readonly log: Logger,
  ) {
    this.transport = lazyTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  }

  async send(message: MailMessage): Promise<void> {
    const info = await (
      await this.transport()
    ).sendMail({
      from: this.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
    });
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const file = path.join(
      this.dir,
      `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`,
    );
    // Written aside, then renamed: a reader of the folder never sees a message half written.
    const partial = path.join(this.dir, `.${path.basename(file)}.partial`);
    await writeFile(partial, info.message as Buffer, { mode: 0o600 });
    await rename(partial, file);
    // The path only: the message may carry a reset token.
    this.log.info({ file }, 'mail written (no SMTP_URL set)');
  }
}
