/**
 * Platform routes under load (autocannon), each figure beside its reference in the same run.
 *
 * limits: what the request-limit layers cost a minimal authenticated route (GET /api/v1/auth/me
 * with an access token): the proxy limits (token bucket, connection count), the per-IP window, the
 * per-action budget hook and the account-key refusal all on, against the same product with the
 * proxy layer off and every address exempt. Clients come from 4,096 addresses (X-Forwarded-For
 * with TRUST_PROXY) so no address reaches a limit: the layers run their whole path and refuse
 * nothing. Rounds alternate (on, off, on, off, ...); the ratio is of the medians.
 */
import autocannon from 'autocannon';
import { startTestApp, type TestApp } from '../src/testing/test-app.ts';

export interface PlatformRound {
  readonly variant: 'layers' | 'bare';
  readonly rps: number;
  readonly p99Ms: number;
  readonly non2xx: number;
}

export interface PlatformResult {
  readonly route: string;
  readonly rounds: PlatformRound[];
  readonly layersRps: number;
  readonly bareRps: number;
  /** layers ÷ bare throughput (1 = free). */
  readonly ratio: number;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0
    ? 0
    : s.length % 2 === 1
      ? s[(s.length - 1) / 2]!
      : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function load(
  t: TestApp,
  token: string,
  seconds: number,
  connections: number,
): Promise<autocannon.Result> {
  let n = 0;
  return autocannon({
    url: `${t.url}/api/v1/auth/me`,
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${token}` },
    setupClient: (client) => {
      client.setHeaders({
        authorization: `Bearer ${token}`,
        'x-forwarded-for': `10.${(n >> 8) & 15}.${n++ & 255}.7`,
      });
    },
  });
}

export async function runPlatform(
  options: { rounds: number; seconds: number; connections: number },
  log: (line: string) => void,
): Promise<PlatformResult> {
  const base = { LOG_LEVEL: 'silent', TRUST_PROXY: 'true' };
  const layers = await startTestApp({ env: base });
  const bare = await startTestApp({
    env: { ...base, PROXY_LIMITS: 'false', LIMITS_EXEMPT: '0.0.0.0/0,::/0' },
  });
  try {
    const tokens = new Map<TestApp, string>([
      [layers, (await layers.signUp()).token],
      [bare, (await bare.signUp()).token],
    ]);
    // Warm both (JIT, connection pools, the session cache).
    for (const t of [layers, bare]) await load(t, tokens.get(t)!, 2, options.connections);
    const rounds: PlatformRound[] = [];
    for (let i = 0; i < options.rounds; i++) {
      for (const [variant, t] of [
        ['layers', layers],
        ['bare', bare],
      ] as const) {
        const r = await load(t, tokens.get(t)!, options.seconds, options.connections);
        rounds.push({ variant, rps: r.requests.average, p99Ms: r.latency.p99, non2xx: r.non2xx });
        log(
          `platform limits: ${variant} ${r.requests.average.toFixed(0)} req/s, p99 ${r.latency.p99} ms, non-2xx ${r.non2xx}`,
        );
      }
    }
    const layersRps = median(rounds.filter((r) => r.variant === 'layers').map((r) => r.rps));
    const bareRps = median(rounds.filter((r) => r.variant === 'bare').map((r) => r.rps));
    return { route: 'GET /api/v1/auth/me', rounds, layersRps, bareRps, ratio: layersRps / bareRps };
  } finally {
    await layers.close();
    await bare.close();
  }
}
