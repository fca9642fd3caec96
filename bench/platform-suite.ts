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
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { insertOutboxEvent, type OutboxTables } from '../src/kernel/events/outbox.ts';
import { tablesOf } from '../src/kernel/runtime/runtime.ts';
import type { WebhooksModule } from '../src/modules/webhooks/index.ts';
import { startTestApp, type TestApp } from '../src/testing/test-app.ts';

export interface PlatformRound {
  readonly variant: 'layers' | 'bare';
  readonly rps: number;
  readonly p99Ms: number;
  readonly non2xx: number;
}

export interface WebhookThroughput {
  readonly events: number;
  readonly seconds: number;
  readonly eventsPerSecond: number;
}

export interface PlatformResult {
  readonly webhooks: WebhookThroughput;
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
  options: { rounds: number; seconds: number; connections: number; events: number },
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
    await layers.close();
    await bare.close();
    const webhooks = await webhookThroughput(options.events, log);
    return { webhooks, route: 'GET /api/v1/auth/me', rounds, layersRps, bareRps, ratio: layersRps / bareRps };
  } finally {
    await layers.close().catch(() => undefined);
    await bare.close().catch(() => undefined);
  }
}

/**
 * webhooks: events a second the dispatcher delivers (fan-out, claim, sign, HTTPS POST, record)
 * to a local HTTPS receiver, one product process (one core), on the embedded database.
 */
async function webhookThroughput(events: number, log: (line: string) => void): Promise<WebhookThroughput> {
  const sink = fork(fileURLToPath(new URL('./https-sink-child.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const ask = <T>(message: string | null): Promise<T> =>
    new Promise((resolve) => {
      sink.once('message', (m) => resolve(m as T));
      if (message !== null) sink.send(message);
    });
  const { url, caFile } = await ask<{ url: string; caFile: string }>(null);
  const t = await startTestApp({
    env: { LOG_LEVEL: 'silent', OUTBOUND_ALLOW_PRIVATE_TARGETS: 'true', OUTBOUND_CA_FILE: caFile },
  });
  try {
    const engine = (t.node.modules.find((m) => m.name === 'webhooks') as WebhooksModule).engine;
    await engine.stop();
    const { token } = await t.signUp();
    const orgId = (
      await t.request('POST', '/api/v1/orgs', { token, body: { slug: 'bench-hooks', name: 'Bench' } })
    ).body.id;
    await t.request('POST', '/api/v1/orgs/bench-hooks/webhooks', {
      token,
      body: { url: `${url}/in`, events: ['*'] },
    });
    const db = tablesOf<OutboxTables>(t.node.runtime);
    for (let i = 0; i < events; i++)
      await insertOutboxEvent(db, { orgId, name: 'commerce.bench.event', data: { i } }, new Date());
    const started = performance.now();
    let delivered = 0;
    while (delivered < events) {
      await engine.runOnce();
      delivered = (await ask<{ count: number }>('count')).count;
    }
    const seconds = (performance.now() - started) / 1000;
    log(`platform webhooks: ${events} events in ${seconds.toFixed(2)} s`);
    return { events, seconds, eventsPerSecond: events / seconds };
  } finally {
    await t.close();
    sink.send('stop');
    await new Promise((r) => sink.once('exit', r));
  }
}
