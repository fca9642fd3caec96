/**
 * A small client of the Proxmox VE HTTP API (`/api2/json`, pve-docs "Proxmox VE API"): API-token
 * authentication (`Authorization: PVEAPIToken=<user>@<realm>!<tokenid>=<secret>`), parameters in
 * the query string for GET and DELETE and as an `application/x-www-form-urlencoded` body otherwise
 * (as PVE's web UI sends them: `encodeURIComponent` of names and values, booleans as `0`/`1`), the
 * `{data}` envelope, and PVE's errors: the HTTP status with the message as its reason phrase, and
 * for a 400 the per-parameter reasons in `{errors: {param: reason}}`. Connections are kept alive;
 * a CA file is trusted besides the system's (PVE signs node certificates with its own CA).
 */
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { Agent, request } from 'undici';
import { GuestAgentNotRunning, ProviderError, VmNotFound } from './compute-provider.ts';

export type PveParamValue = string | number | boolean | undefined | null;
export type PveParams = Readonly<Record<string, PveParamValue>>;

export interface PveHttpOptions {
  /** scheme://host:port. */
  readonly url: string;
  readonly tokenId: string;
  readonly tokenSecret: string;
  readonly caFile?: string | null;
  /** How long one request may take (default 30 s). */
  readonly timeoutMs?: number;
}

/** One parameter as PVE's clients send it: booleans as 0/1, the rest as text. */
function paramText(v: Exclude<PveParamValue, undefined | null>): string {
  if (typeof v === 'boolean') return v ? '1' : '0';
  return String(v);
}

/** `a=1&b=x%20y`: encodeURIComponent of names and values (Ext.Object.toQueryString, PVE's web UI). */
export function pveFormEncode(params: PveParams): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue;
    parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(paramText(v))}`);
  }
  return parts.join('&');
}

interface Envelope {
  data?: unknown;
  errors?: Record<string, string>;
  message?: string;
}

function parseEnvelope(text: string): Envelope | null {
  try {
    const v: unknown = text === '' ? null : JSON.parse(text);
    return v !== null && typeof v === 'object' ? (v as Envelope) : null;
  } catch {
    return null;
  }
}

export class PveHttp {
  private readonly base: string;
  private readonly auth: string;
  private readonly agent: Agent;

  constructor(private readonly options: PveHttpOptions) {
    this.base = `${options.url.replace(/\/+$/, '')}/api2/json`;
    this.auth = `PVEAPIToken=${options.tokenId}=${options.tokenSecret}`;
    const timeout = options.timeoutMs ?? 30_000;
    const ca = options.caFile ? [...rootCertificates, readFileSync(options.caFile, 'utf8')] : undefined;
    this.agent = new Agent({
      // Shorter than pveproxy keeps an idle connection, so a reused socket is not one it closed.
      keepAliveTimeout: 4_000,
      headersTimeout: timeout,
      bodyTimeout: timeout,
      connect: ca ? { ca } : {},
    });
  }

  /** The API's base URL (`…/api2/json`). */
  get apiBase(): string {
    return this.base;
  }

  get<T>(path: string, params: PveParams = {}): Promise<T> {
    return this.call<T>('GET', path, params);
  }
  post<T>(path: string, params: PveParams = {}): Promise<T> {
    return this.call<T>('POST', path, params);
  }
  put<T>(path: string, params: PveParams = {}): Promise<T> {
    return this.call<T>('PUT', path, params);
  }
  delete<T>(path: string, params: PveParams = {}): Promise<T> {
    return this.call<T>('DELETE', path, params);
  }

  async call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, params: PveParams): Promise<T> {
    const encoded = pveFormEncode(params);
    const inQuery = method === 'GET' || method === 'DELETE';
    const url = `${this.base}${path}${inQuery && encoded !== '' ? `?${encoded}` : ''}`;
    const headers: Record<string, string> = { authorization: this.auth, accept: 'application/json' };
    let body: string | undefined;
    if (!inQuery) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = encoded;
    }
    const send = () => request(url, { method, headers, body, dispatcher: this.agent });
    let res;
    try {
      res = await send().catch((err: unknown) => {
        // A kept-alive connection the server closed meanwhile: a read is tried once more.
        const code = (err as { code?: string }).code;
        if (method === 'GET' && (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET')) return send();
        throw err;
      });
    } catch (err) {
      throw new ProviderError(0, `PVE request failed: ${(err as Error).message}`);
    }
    const text = await res.body.text();
    const json = parseEnvelope(text);
    if (res.statusCode >= 400) {
      const message = (res.statusText || json?.message || `HTTP ${res.statusCode}`).trim();
      const errors = json?.errors && typeof json.errors === 'object' ? json.errors : {};
      if (/guest agent is not running/i.test(message))
        throw new GuestAgentNotRunning(res.statusCode, message, errors);
      if (/^Configuration file '[^']*qemu-server\/\d+\.conf' does not exist$/.test(message))
        throw new VmNotFound(res.statusCode, message, errors);
      throw new ProviderError(res.statusCode, message, errors);
    }
    if (json === null || !('data' in json))
      throw new ProviderError(res.statusCode, 'PVE answered without a {data} envelope');
    return json.data as T;
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
