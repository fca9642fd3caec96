import { readFileSync } from 'node:fs';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Agent, buildConnector as undiciConnector, request as undiciRequest } from 'undici';
import { invalidField } from '../errors/app-error.ts';

/** A webhook endpoint must answer within 10 s (docs/webhooks.md, "A delivery"). */
export const OUTBOUND_TIMEOUT_MS = 10_000;
/** Response bodies are read this far at most (a receiver's answer is not ours to store). */
export const OUTBOUND_MAX_BODY_BYTES = 64 * 1024;

export interface OutboundOptions {
  /** Whether a request may reach this address (the shared address classifier). */
  readonly isAllowedAddress: (address: string) => boolean;
  /** Tests only: plain http:// URLs. */
  readonly allowHttp?: boolean;
  /** Tests only: a CA to trust besides the system's (a local receiver's own CA). */
  readonly caFile?: string | null;
  /** Tests only: how names resolve (default: the system resolver). */
  readonly resolve?: (hostname: string) => Promise<string[]>;
}

export interface OutboundResponse {
  readonly status: number;
  readonly body: string;
  readonly durationMs: number;
}

/** Why a request was not even sent, or failed on the way. */
export class OutboundError extends Error {
  constructor(
    readonly reason:
      'scheme' | 'forbidden_address' | 'dns' | 'connect' | 'tls' | 'timeout' | 'too_large' | 'other',
    message: string,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

/**
 * Refuses, when it is saved, a URL that requests would be refused for: a host that is, or now
 * resolves to, a private or reserved address (422 naming `loc`). The scheme is the caller's to
 * check (with its own message). The check before each request stays: a name can move later.
 */
export async function refuseForbiddenDestination(
  outbound: Pick<OutboundClient, 'refusal'>,
  url: string,
  loc: readonly (string | number)[],
): Promise<void> {
  const refused = await outbound.refusal(url);
  if (refused?.reason === 'forbidden_address') throw invalidField(loc, refused.message, url);
}

const defaultResolve = async (hostname: string): Promise<string[]> =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** How long a destination check waits for a name to resolve before it leaves the name to the request. */
export const DESTINATION_CHECK_RESOLVE_MS = 5_000;

/**
 * The one outbound HTTP client (webhooks and any later callback): https only, no redirects
 * followed, 10 s for the whole exchange, at most 64 KiB of answer read. The destination is
 * resolved and checked right before the socket opens, and the socket goes to the very address
 * checked — a name that resolves to a private address, or starts to (DNS rebinding), is refused.
 */
export class OutboundClient {
  /**
   * undici and the agent, made on the first request: every process has an outbound client, few
   * send anything (undici costs about 20 MiB resident, which a DNS node need not pay).
   */
  private http: Promise<{ readonly agent: Agent; readonly request: typeof undiciRequest }> | null = null;
  private readonly resolve: (hostname: string) => Promise<string[]>;

  constructor(private readonly options: OutboundOptions) {
    this.resolve = options.resolve ?? defaultResolve;
  }

  private open(): Promise<{ readonly agent: Agent; readonly request: typeof undiciRequest }> {
    this.http ??= import('undici').then(({ Agent, buildConnector, request }) => ({
      agent: this.makeAgent(Agent, buildConnector),
      request,
    }));
    return this.http;
  }

  private makeAgent(AgentClass: typeof Agent, buildConnector: typeof undiciConnector): Agent {
    const ca = this.options.caFile ? readFileSync(this.options.caFile, 'utf8') : undefined;
    const connect = buildConnector({ timeout: OUTBOUND_TIMEOUT_MS, ...(ca !== undefined ? { ca } : {}) });
    return new AgentClass({
      connect: (opts, callback) => {
        const host = opts.hostname.replace(/^\[|\]$/g, '');
        const addresses = isIP(host) !== 0 ? Promise.resolve([host]) : this.resolve(host);
        addresses.then(
          (list) => {
            const allowed = this.allowedOf(list);
            if (allowed === null) {
              callback(
                new OutboundError('forbidden_address', `${host} is a private or reserved address`),
                null,
              );
              return;
            }
            // Connect to the address just checked; the certificate is checked against the name.
            connect(
              { ...opts, hostname: allowed, servername: isIP(host) !== 0 ? undefined : host } as never,
              callback,
            );
          },
          (error: unknown) =>
            callback(new OutboundError('dns', `${host} does not resolve: ${String(error)}`), null),
        );
      },
      keepAliveTimeout: 4_000,
      connections: 64,
    });
  }

  /**
   * Where `url` would be sent now, judged as a request judges it before its socket opens: the
   * scheme, then every address the host is or resolves to. Answers why it would be refused, or
   * null. A name that does not resolve (yet, or within DESTINATION_CHECK_RESOLVE_MS) is not
   * refused here: the check before each request still applies to whatever it resolves to then.
   */
  async refusal(url: string): Promise<OutboundError | null> {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return new OutboundError('scheme', 'not a URL');
    }
    if (!this.schemeAllowed(target)) return new OutboundError('scheme', 'only https:// URLs are called');
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) !== 0) {
      return this.allowedOf([host]) === null
        ? new OutboundError('forbidden_address', `${host} is a private or reserved address`)
        : null;
    }
    let timer: NodeJS.Timeout | undefined;
    const list = await Promise.race([
      this.resolve(host).catch(() => null),
      new Promise<null>((done) => {
        timer = setTimeout(() => done(null), DESTINATION_CHECK_RESOLVE_MS);
      }),
    ]).finally(() => clearTimeout(timer));
    if (list === null || list.length === 0) return null;
    if (this.allowedOf(list) !== null) return null;
    const refused = list.filter((a) => !this.options.isAllowedAddress(a));
    return new OutboundError(
      'forbidden_address',
      `${host} resolves to a private or reserved address (${refused.join(', ')})`,
    );
  }

  /** The address to connect to, or null when any of them is refused (one bad answer spoils the name). */
  private allowedOf(list: readonly string[]): string | null {
    const allowed = list.find((a) => this.options.isAllowedAddress(a));
    return allowed === undefined || list.some((a) => !this.options.isAllowedAddress(a)) ? null : allowed;
  }

  private schemeAllowed(target: URL): boolean {
    return target.protocol === 'https:' || (this.options.allowHttp === true && target.protocol === 'http:');
  }

  async post(
    url: string,
    body: string,
    headers: Readonly<Record<string, string>>,
  ): Promise<OutboundResponse> {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      throw new OutboundError('scheme', 'not a URL');
    }
    if (!this.schemeAllowed(target)) {
      throw new OutboundError('scheme', 'only https:// URLs are called');
    }
    const { agent, request } = await this.open();
    const started = performance.now();
    try {
      const res = await request(target, {
        method: 'POST',
        body,
        headers,
        dispatcher: agent,
        signal: AbortSignal.timeout(OUTBOUND_TIMEOUT_MS),
        headersTimeout: OUTBOUND_TIMEOUT_MS,
        bodyTimeout: OUTBOUND_TIMEOUT_MS,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        const b = chunk as Buffer;
        if (size < OUTBOUND_MAX_BODY_BYTES) chunks.push(b.subarray(0, OUTBOUND_MAX_BODY_BYTES - size));
        size += b.length;
        if (size >= OUTBOUND_MAX_BODY_BYTES) {
          res.body.destroy();
          break;
        }
      }
      return {
        status: res.statusCode,
        body: Buffer.concat(chunks).toString('utf8'),
        durationMs: performance.now() - started,
      };
    } catch (error) {
      if (error instanceof OutboundError) throw error;
      const cause = (error as { cause?: unknown }).cause;
      if (cause instanceof OutboundError) throw cause;
      const e = error as { name?: string; code?: string; message?: string };
      if (e.name === 'TimeoutError' || e.name === 'AbortError' || /TIMEOUT/.test(e.code ?? '')) {
        throw new OutboundError('timeout', `no answer within ${OUTBOUND_TIMEOUT_MS / 1000} s`);
      }
      if (/CERT|SSL|TLS|UNABLE_TO_VERIFY|SELF_SIGNED/i.test(`${e.code ?? ''} ${e.message ?? ''}`)) {
        throw new OutboundError('tls', `certificate not trusted: ${e.code ?? e.message}`);
      }
      if (
        /ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|UND_ERR_SOCKET/.test(
          `${e.code ?? ''} ${e.message ?? ''}`,
        )
      ) {
        throw new OutboundError('connect', `connection failed: ${e.code ?? e.message}`);
      }
      throw new OutboundError('other', e.message ?? String(error));
    }
  }

  /**
   * A GET whose answer is streamed to `onChunk` (a file download), through the same guard: at most
   * `maxBytes` of body (more: `too_large`), `timeoutMs` for the whole exchange. Answers the status;
   * the body of an answer other than 200 is not read.
   */
  async download(
    url: string,
    onChunk: (chunk: Buffer) => void | Promise<void>,
    limits: { readonly maxBytes: number; readonly timeoutMs: number },
  ): Promise<{ status: number; bytes: number }> {
    const target = new URL(url);
    if (!this.schemeAllowed(target)) throw new OutboundError('scheme', 'only https:// URLs are called');
    const { agent, request } = await this.open();
    try {
      const res = await request(target, {
        method: 'GET',
        dispatcher: agent,
        signal: AbortSignal.timeout(limits.timeoutMs),
        headersTimeout: limits.timeoutMs,
        bodyTimeout: limits.timeoutMs,
      });
      if (res.statusCode !== 200) {
        res.body.destroy();
        return { status: res.statusCode, bytes: 0 };
      }
      const declared = Number(res.headers['content-length'] ?? 0);
      let bytes = 0;
      if (declared > limits.maxBytes) res.body.destroy();
      else
        for await (const chunk of res.body) {
          bytes += (chunk as Buffer).length;
          if (bytes > limits.maxBytes) break;
          await onChunk(chunk as Buffer);
        }
      if (declared > limits.maxBytes || bytes > limits.maxBytes) {
        res.body.destroy();
        throw new OutboundError('too_large', `larger than ${limits.maxBytes} bytes`);
      }
      return { status: 200, bytes };
    } catch (error) {
      if (error instanceof OutboundError) throw error;
      const cause = (error as { cause?: unknown }).cause;
      if (cause instanceof OutboundError) throw cause;
      const e = error as { name?: string; message?: string };
      if (e.name === 'TimeoutError' || e.name === 'AbortError')
        throw new OutboundError('timeout', `no answer within ${limits.timeoutMs / 1000} s`);
      throw new OutboundError('other', e.message ?? String(error));
    }
  }

  async close(): Promise<void> {
    if (this.http !== null) await (await this.http).agent.close();
  }
}
