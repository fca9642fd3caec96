import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../../../kernel/log/logger.ts';
import type { CertificatesRepository } from '../shared/certificates-repository.ts';

const PREFIX = '/.well-known/acme-challenge/';
/** RFC 8555 §8.3: the token is base64url. */
const TOKEN = /^[A-Za-z0-9_-]{1,256}$/;

/**
 * The HTTP-01 responder (RFC 8555 §8.3): `GET /.well-known/acme-challenge/<token>` answers the key
 * authorization of an order in progress, from the database, so any API process can answer for
 * any order. Everything else is 404. Plain HTTP, as the CA asks.
 */
export class Http01Listener {
  private server: http.Server | null = null;

  constructor(
    private readonly repo: CertificatesRepository,
    private readonly log: Logger,
  ) {}

  /**
   * Listens; answers the address bound. A port it may not bind (80 without the capability) is
   * logged, not fatal.
   */
  async start(host: string, port: number): Promise<{ host: string; port: number } | null> {
    const server = http.createServer((req, res) => void this.answer(req, res));
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve());
      });
    } catch (error) {
      this.log.warn(
        { err: error, host, port },
        'HTTP-01 listener not started: http challenges will fail (set ACME_HTTP_PORT, or 0 to turn it off)',
      );
      return null;
    }
    this.server = server;
    const bound = server.address() as AddressInfo;
    this.log.info({ host: bound.address, port: bound.port }, 'HTTP-01 listener started');
    return { host: bound.address, port: bound.port };
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server === null) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0] ?? '';
    const token = path.startsWith(PREFIX) ? path.slice(PREFIX.length) : '';
    let body: string | null = null;
    if ((req.method === 'GET' || req.method === 'HEAD') && TOKEN.test(token)) {
      try {
        body = await this.repo.keyAuthorization(token);
      } catch (error) {
        this.log.error({ err: error }, 'HTTP-01 lookup failed');
      }
    }
    res.writeHead(body === null ? 404 : 200, { 'content-type': 'text/plain' });
    res.end(req.method === 'HEAD' ? undefined : (body ?? 'not found'));
  }
}
