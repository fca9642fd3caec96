import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message as received: its envelope and its bytes, unparsed (for DKIM verification). */
export interface ReceivedMail {
  readonly envelopeFrom: string;
  readonly recipients: string[];
  readonly raw: Buffer;
  readonly receivedAt: number;
}

export type RcptVerdict = (recipient: string) => { code: number; message: string } | null;

/**
 * A receiving SMTP server for tests (a recipient's mail server, or an MTA stand-in): loopback,
 * free port, no TLS, no authentication. `verdict` decides each RCPT TO: null accepts (250), a 4xx
 * refuses for now, a 5xx for good. Without the DSN extension by default (`hideDsn`), so an MTA
 * relaying to it reports success itself (RFC 3461 §6.2.2.2: Action relayed).
 */
export interface SmtpReceiver {
  readonly host: string;
  readonly port: number;
  readonly messages: ReceivedMail[];
  verdict: RcptVerdict;
  /** The first message (received or arriving within `timeoutMs`) that `match` accepts. */
  waitFor(match: (m: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startSmtpReceiver(
  options: { verdict?: RcptVerdict; hideDsn?: boolean } = {},
): Promise<SmtpReceiver> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const state: { verdict: RcptVerdict } = { verdict: options.verdict ?? (() => null) };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    hideDSN: options.hideDsn ?? true,
    size: 20 * 1024 * 1024,
    logger: false,
    onRcptTo(address, _session, callback) {
      const v = state.verdict(address.address.toLowerCase());
      if (v === null) return callback();
      const error = new Error(v.message) as Error & { responseCode: number };
      error.responseCode = v.code;
      callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        messages.push({
          envelopeFrom: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
          recipients: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw: Buffer.concat(chunks),
          receivedAt: Date.now(),
        });
        for (const w of [...waiters]) w();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    host: '127.0.0.1',
    port,
    messages,
    get verdict() {
      return state.verdict;
    },
    set verdict(v: RcptVerdict) {
      state.verdict = v;
    },
    waitFor(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = (): boolean => {
          const found = messages.find(match);
          if (found === undefined) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching message within ${timeoutMs} ms (${messages.length} received)`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
