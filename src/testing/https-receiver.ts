/**
 * Test helper: a local HTTPS server with a certificate of its own CA (made with the machine's
 * openssl), so the product trusts it only through OUTBOUND_CA_FILE. It records every request
 * (method, path, headers, raw body) and answers with what `respond` says.
 */
import { rmSync } from 'node:fs';
import { localCa } from './local-ca.ts';
import https from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';

export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly at: number;
}

export interface Answer {
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** Answer after this long (ms); a timeout test waits past the product's 10 s. */
  readonly delayMs?: number;
}

export interface HttpsReceiver {
  readonly url: string;
  readonly port: number;
  /** PEM file of the receiver's CA: point OUTBOUND_CA_FILE at it. */
  readonly caFile: string;
  readonly requests: ReceivedRequest[];
  respond: (request: ReceivedRequest) => Answer;
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startHttpsReceiver(
  respond: (r: ReceivedRequest) => Answer = () => ({ status: 200 }),
): Promise<HttpsReceiver> {
  const ca = localCa();
  const requests: ReceivedRequest[] = [];
  const waiters: (() => void)[] = [];
  const receiver: HttpsReceiver = {
    url: '',
    port: 0,
    caFile: ca.caFile,
    requests,
    respond,
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`receiver got ${requests.length} of ${count} requests`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, 200));
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    close: async () => undefined,
  };
  const server = https.createServer({ key: ca.key, cert: ca.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const got: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      requests.push(got);
      for (const w of waiters.splice(0)) w();
      const answer = receiver.respond(got);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, answer.headers ?? {});
        res.end(answer.body ?? '');
      };
      if (answer.delayMs !== undefined) setTimeout(send, answer.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return Object.assign(receiver, {
    url: `https://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          rmSync(ca.dir, { recursive: true, force: true });
          resolve();
        });
      }),
  });
}
