import { isIP } from 'node:net';
import { lookup } from 'node:dns/promises';
import type { Agent, request as undiciRequest } from 'undici';
import { OUTBOUND_TIMEOUT_MS, OutboundError } from '../../../kernel/outbound/guarded-client.ts';
import { classifyAddress, isAllowedTarget } from '../../../net/address-class.ts';

/**
 * The sources' answers are read this far at most: a CurseForge page of 50 files or a Modrinth
 * answer for a few hundred files fits many times over; anything longer is not an API answer.
 */
export const SOURCE_MAX_BODY_BYTES = 16 * 1024 * 1024;

export interface SourceHttpResponse {
  readonly status: number;
  readonly body: string;
}

/** What the adapters need of HTTP: a GET and a JSON POST, answered in full (up to the cap). */
export interface SourceHttp {
  request(
    method: 'GET' | 'POST',
    url: string,
    headers: Readonly<Record<string, string>>,
    body?: string,
  ): Promise<SourceHttpResponse>;
  close(): Promise<void>;
}

export interface SourceHttpOptions {
  /** Tests only: the sources may be on private and loopback addresses (OUTBOUND_ALLOW_PRIVATE_TARGETS). */
  readonly allowPrivate: boolean;
  /** Tests only: plain http:// (OUTBOUND_ALLOW_HTTP). */
  readonly allowHttp: boolean;
  readonly resolve?: (hostname: string) => Promise<string[]>;
  /** The whole exchange (default OUTBOUND_TIMEOUT_MS, 10 s). */
  readonly timeoutMs?: number;
}

const defaultResolve = async (hostname: string): Promise<string[]> =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/**
 * The kernel's outbound guard (OutboundClient) applied to GET and to answers larger than a
 * webhook's: the same address classifier and settings, the destination resolved and checked right
 * before the socket opens and the socket sent to the very address checked, no redirects, 10 s.
 */
export class GuardedSourceHttp implements SourceHttp {
  private http: Promise<{ readonly agent: Agent; readonly request: typeof undiciRequest }> | null = null;
  private readonly resolve: (hostname: string) => Promise<string[]>;
  private readonly timeoutMs: number;

  constructor(private readonly options: SourceHttpOptions) {
    this.resolve = options.resolve ?? defaultResolve;
    this.timeoutMs = options.timeoutMs ?? OUTBOUND_TIMEOUT_MS;
  }

  private allowed(address: string): boolean {
    const cls = classifyAddress(address);
    return cls !== null && isAllowedTarget(cls, this.options.allowPrivate);
  }

  private open(): Promise<{ readonly agent: Agent; readonly request: typeof undiciRequest }> {
    this.http ??= import('undici').then(({ Agent, buildConnector, request }) => {
      const connect = buildConnector({ timeout: this.timeoutMs });
      const agent = new Agent({
        connect: (opts, callback) => {
          const host = opts.hostname.replace(/^\[|\]$/g, '');
          const addresses = isIP(host) !== 0 ? Promise.resolve([host]) : this.resolve(host);
          addresses.then(
            (list) => {
              if (list.length === 0 || list.some((a) => !this.allowed(a))) {
                callback(
                  new OutboundError('forbidden_address', `${host} is a private or reserved address`),
                  null,
                );
                return;
              }
              const servername = isIP(host) !== 0 ? undefined : host;
              connect({ ...opts, hostname: list[0]!, servername } as never, callback);
            },
            (error: unknown) =>
              callback(new OutboundError('dns', `${host} does not resolve: ${String(error)}`), null),
          );
        },
        keepAliveTimeout: 4_000,
        connections: 16,
      });
      return { agent, request };
    });
    return this.http;
  }

  async request(
    method: 'GET' | 'POST',
    url: string,
    headers: Readonly<Record<string, string>>,
    body?: string,
  ): Promise<SourceHttpResponse> {
    const target = new URL(url);
    const httpOk = this.options.allowHttp && target.protocol === 'http:';
    if (target.protocol !== 'https:' && !httpOk) {
      throw new OutboundError('scheme', 'only https:// URLs are called');
    }
    const { agent, request } = await this.open();
    try {
      const res = await request(target, {
        method,
        headers,
        ...(body !== undefined ? { body } : {}),
        dispatcher: agent,
        signal: AbortSignal.timeout(this.timeoutMs),
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > SOURCE_MAX_BODY_BYTES) {
          res.body.destroy();
          throw new OutboundError('other', `answer longer than ${SOURCE_MAX_BODY_BYTES} bytes`);
        }
        chunks.push(chunk as Buffer);
      }
      return { status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') };
    } catch (error) {
      throw asOutboundError(error, this.timeoutMs);
    }
  }

  async close(): Promise<void> {
    if (this.http !== null) await (await this.http).agent.close();
  }
}

function asOutboundError(error: unknown, timeoutMs: number): OutboundError {
  if (error instanceof OutboundError) return error;
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof OutboundError) return cause;
  const e = error as { name?: string; code?: string; message?: string };
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || /TIMEOUT/.test(e.code ?? '')) {
    return new OutboundError('timeout', `no answer within ${timeoutMs / 1000} s`);
  }
  return new OutboundError('connect', `connection failed: ${e.code ?? e.message ?? String(error)}`);
}
