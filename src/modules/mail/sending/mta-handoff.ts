import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { Logger } from '../../../kernel/log/logger.ts';
import type { MessageCopy } from './message-composer.ts';

/** How one copy fared at the MTA: accepted recipients, and refused ones with the MTA's reply. */
export interface HandoffResult {
  readonly accepted: readonly string[];
  /** The MTA's answer to the message (`250 2.0.0 Ok: queued as …`). */
  readonly response: string | null;
  readonly refused: readonly {
    readonly recipient: string;
    readonly code: number;
    readonly response: string;
  }[];
}

/** The MTA could not take the message at all (connection, greeting, MAIL FROM): try again later. */
export class HandoffUnavailable extends Error {}

/**
 * Where messages go: the MTA at MAIL_RELAY_SMTP_URL, with the VERP return path as the envelope
 * sender and DSN requests (RFC 3461: NOTIFY=SUCCESS,FAILURE,DELAY, RET=HDRS, ENVID=queue id);
 * or, with no MTA configured, .eml files in DATA_DIR/mail-out (the embedded default).
 */
export interface MtaHandoff {
  /** `queue.authenticated-message-queued` (an MTA took it) or `queue.message-queued` (a file). */
  readonly acceptedType: string;
  send(
    copy: MessageCopy,
    envelope: { readonly from: string; readonly envid: string; readonly name: string },
  ): Promise<HandoffResult>;
  close(): Promise<void>;
}

export function createHandoff(relayUrl: string | null, dataDir: string, log: Logger): MtaHandoff {
  return relayUrl === null ? new FileHandoff(path.join(dataDir, 'mail-out'), log) : new SmtpHandoff(relayUrl);
}

interface SmtpError extends Error {
  responseCode?: number;
  response?: string;
  rejectedErrors?: { recipient?: string; responseCode?: number; response?: string }[];
}

class SmtpHandoff implements MtaHandoff {
  readonly acceptedType = 'queue.authenticated-message-queued';
  private transport: Promise<Transporter> | null = null;

  constructor(private readonly url: string) {}

  private open(): Promise<Transporter> {
    return (this.transport ??= import('nodemailer').then((m) =>
      m.default.createTransport(this.url, { pool: true, maxConnections: 4 } as never),
    ));
  }

  async send(copy: MessageCopy, envelope: { from: string; envid: string }): Promise<HandoffResult> {
    const transport = await this.open();
    try {
      const info = (await transport.sendMail({
        envelope: { from: envelope.from, to: [...copy.recipients] },
        raw: copy.raw,
        dsn: { notify: ['SUCCESS', 'FAILURE', 'DELAY'], ret: 'HEADERS', envid: envelope.envid },
      })) as { accepted: unknown[]; response?: string; rejectedErrors?: SmtpError['rejectedErrors'] };
      return {
        accepted: info.accepted.map((a) => String(a).toLowerCase()),
        response: info.response ?? null,
        refused: refusals(info.rejectedErrors),
      };
    } catch (e) {
      const err = e as SmtpError;
      const refused = refusals(err.rejectedErrors);
      // Every recipient refused at RCPT TO: their refusals are the answer.
      if (refused.length > 0) return { accepted: [], response: null, refused };
      // A permanent refusal of the whole message (MAIL FROM or DATA answered 5xx).
      if (typeof err.responseCode === 'number' && err.responseCode >= 500) {
        return {
          accepted: [],
          response: null,
          refused: copy.recipients.map((r) => ({
            recipient: r,
            code: err.responseCode!,
            response: err.response ?? err.message,
          })),
        };
      }
      throw new HandoffUnavailable(err.response ?? err.message);
    }
  }

  async close(): Promise<void> {
    const t = this.transport;
    this.transport = null;
    if (t !== null) (await t).close();
  }
}

function refusals(errors: SmtpError['rejectedErrors']): HandoffResult['refused'] {
  return (errors ?? []).map((e) => ({
    recipient: String(e.recipient ?? '').toLowerCase(),
    code: e.responseCode ?? 550,
    response: e.response ?? 'refused',
  }));
}

class FileHandoff implements MtaHandoff {
  readonly acceptedType = 'queue.message-queued';
  private told = false;

  constructor(
    private readonly dir: string,
    private readonly log: Logger,
  ) {}

  async send(copy: MessageCopy, envelope: { from: string; name: string }): Promise<HandoffResult> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const file = path.join(this.dir, `${envelope.name}.eml`);
    await writeFile(file, Buffer.concat([Buffer.from(`Return-Path: <${envelope.from}>\r\n`), copy.raw]), {
      mode: 0o600,
    });
    if (!this.told) {
      this.told = true;
      this.log.info(
        { dir: this.dir },
        'no mail relay configured (MAIL_RELAY_SMTP_URL): messages are written as .eml files',
      );
    }
    return { accepted: [...copy.recipients], response: `written to ${path.basename(file)}`, refused: [] };
  }

  async close(): Promise<void> {}
}
