import { STATUS_CODES } from 'node:http';
import { isIPv6 } from 'node:net';
import { probeErrorText, timeoutText } from './probe-error-text.ts';
import type { ProbeVerdict } from './health-target.ts';
import { ForbiddenTargetError, type TargetGuard } from './target-guard.ts';

export interface HttpProbeRequest {
  readonly scheme: 'http' | 'https';
  readonly address: string;
  readonly port: number;
  readonly path: string;
  readonly timeoutMs: number;
  readonly timeoutS: number;
  /** The local address to connect from; undefined → the system's choice. */
  readonly localAddress?: string | undefined;
}

const USER_AGENT = 'dns-engine-health-check/1';

/**
 * `GET path` on address:port with `Host: <address>`: a 2xx status line within the timeout is
 * healthy, anything else (other status, redirect — never followed —, timeout, connect or TLS
 * failure) is the error text. `https` does not verify the certificate but needs a completed
 * handshake. One fresh connection per probe, closed afterwards: a pooled socket would hide a
 * server that stopped accepting. Throws ForbiddenTargetError when the guard refuses the address.
 */
export async function httpProbe(req: HttpProbeRequest, guard: TargetGuard): Promise<ProbeVerdict> {
  const host = isIPv6(req.address) ? `[${req.address}]` : req.address;
  // Loaded on first use: only a checker probes (undici costs about 20 MiB resident).
  const { buildConnector, Client } = await import('undici');
  const baseConnect = buildConnector({ rejectUnauthorized: false, timeout: req.timeoutMs });
  let connected = false;
  let forbidden: ForbiddenTargetError | null = null;
  const client = new Client(`${req.scheme}://${host}:${req.port}`, {
    connect: (options, callback) => {
      // Connect time: the last moment before a socket opens.
      if (!guard(req.address)) {
        forbidden = new ForbiddenTargetError(req.address);
        callback(forbidden, null);
        return;
      }
      baseConnect(options, (error, socket) => {
        if (error === null) connected = true;
        (callback as (e: Error | null, s: typeof socket) => void)(error, socket);
      });
    },
    headersTimeout: req.timeoutMs,
    bodyTimeout: req.timeoutMs,
    ...(req.localAddress !== undefined ? { localAddress: req.localAddress } : {}),
  });
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), req.timeoutMs);
  try {
    const res = await client.request({
      method: 'GET',
      path: req.path.startsWith('/') ? req.path : `/${req.path}`,
      headers: { host, 'user-agent': USER_AGENT, accept: '*/*' },
      signal: deadline.signal,
      reset: true,
    });
    // The body is not part of the verdict: drop it without waiting for it.
    res.body.on('error', () => {});
    res.body.destroy();
    if (res.statusCode >= 200 && res.statusCode < 300) return null;
    const text = STATUS_CODES[res.statusCode];
    return text ? `HTTP ${res.statusCode} ${text}` : `HTTP ${res.statusCode}`;
  } catch (error) {
    if (forbidden !== null) throw forbidden;
    if (deadline.signal.aborted || isTimeout(error)) return timeoutText(req.timeoutS);
    return probeErrorText(error, { duringTls: req.scheme === 'https' && !connected });
  } finally {
    clearTimeout(timer);
    await client.destroy().catch(() => {});
  }
}

function isTimeout(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'ETIMEDOUT' ||
    code === 'UND_ERR_ABORTED'
  );
}
