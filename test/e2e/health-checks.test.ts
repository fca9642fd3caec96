/**
 * Health checks end to end: real probe targets on loopback addresses, the running product
 * (API + DNS + checker) with a shortened check interval, real UDP queries. The deployment opts
 * into flap damping (HEALTH_FALL=2, HEALTH_RISE=2): a decided change (the second probe in a row
 * that disagrees) is visible over DNS and in preview within 2 s of that probe reaching the target.
 */
import dnsPacket, { type Packet } from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORBIDDEN_TARGET_TEXT } from '../../src/health/target-guard.ts';
import { queryUdp } from '../../src/testing/dns-client.ts';
import { startSwitchableServer, type SwitchableHttpServer } from '../../src/testing/probe-target-servers.ts';
import { startTestApp, type TestApp } from '../../src/testing/test-app.ts';

const ZONES = '/api/v1/dns/zones';
const PROPAGATION_MS = 2000;
const POLL_MS = 25;
const withPostgres = process.env.DATABASE_URL !== undefined && process.env.REDIS_URL !== undefined;

let nextId = 1;
let domains = 0;

interface Setup {
  t: TestApp;
  token: string;
}

async function zone({ t, token }: Setup): Promise<{ id: number; domain: string }> {
  const domain = `hc${++domains}-${Date.now().toString(36)}.example`;
  const res = await t.request('POST', ZONES, { token, body: { domain } });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.id as number, domain };
}

async function pool(
  { t, token }: Setup,
  zoneId: number,
  name: string,
  members: { address: string; port: number; priority?: number }[],
  algorithm: 'weighted_rr' | 'failover' = 'weighted_rr',
): Promise<{ id: number; memberIds: number[] }> {
  const res = await t.request('POST', `${ZONES}/${zoneId}/pools`, {
    token,
    body: { name, algorithm },
  });
  expect(res.status, res.text).toBe(201);
  const memberIds: number[] = [];
  for (const m of members) {
    const r = await t.request('POST', `${ZONES}/${zoneId}/pools/${res.body.id}/members`, {
      token,
      body: {
        address: m.address,
        health_mode: 'http',
        health_port: m.port,
        health_path: '/health',
        health_timeout_s: 1,
        priority: m.priority ?? 0,
      },
    });
    expect(r.status, r.text).toBe(201);
    memberIds.push(r.body.id as number);
  }
  return { id: res.body.id as number, memberIds };
}

async function ask(t: TestApp, name: string): Promise<Packet> {
  const q = dnsPacket.encode({
    type: 'query',
    id: nextId++ & 0xffff || 1,
    flags: dnsPacket.RECURSION_DESIRED,
    questions: [{ type: 'A', class: 'IN', name }],
  });
  const res = await queryUdp(q, {
    host: '127.0.0.1',
    port: t.node.dns!.udpPort,
    timeoutMs: 500,
    retries: 1,
  });
  expect(res.decoded).not.toBeNull();
  return res.decoded!;
}

const addresses = (p: Packet): string[] =>
  (p.answers ?? [])
    .filter((a) => a.type === 'A')
    .map((a) => (a as { data: string }).data)
    .sort();

/** dns-packet decodes the RCODE but its types do not declare it. */
const rcodeOf = (p: Packet): string | undefined => (p as { rcode?: string }).rcode;

/** Polls until `ok` holds; answers when (Date.now()) it first held. Fails after `deadlineMs`. */
async function until<T>(
  read: () => Promise<T>,
  ok: (v: T) => boolean,
  deadlineMs: number,
  what: string,
): Promise<number> {
  const end = Date.now() + deadlineMs;
  let last: T | undefined;
  for (;;) {
    last = await read();
    if (ok(last)) return Date.now();
    if (Date.now() > end)
      throw new Error(`${what}: not reached in ${deadlineMs} ms; last ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** Waits for the next probe request at `server` and answers its arrival time. */
async function nextProbe(server: SwitchableHttpServer, deadlineMs = 5000): Promise<number> {
  const seen = server.requests.length;
  await until(
    async () => server.requests.length,
    (n) => n > seen,
    deadlineMs,
    'next probe',
  );
  return server.requests[seen]!.at;
}

/**
 * A zone with a load balancer at www over one failover pool, which answers its lowest-priority
 * healthy member: `primary` while it is up, else `backup`. Resolves once DNS answers `primary`.
 */
async function failoverLb(
  s: Setup,
  backup: { address: string; port: number },
  primary: { address: string; port: number },
): Promise<{ z: { id: number; domain: string }; p: { id: number; memberIds: number[] }; name: string }> {
  const z = await zone(s);
  const p = await pool(
    s,
    z.id,
    'web',
    [
      { ...backup, priority: 1 },
      { ...primary, priority: 0 },
    ],
    'failover',
  );
  const lb = await s.t.request('POST', `${ZONES}/${z.id}/load-balancers`, {
    token: s.token,
    body: { hostname: 'www', default_pools: [p.id] },
  });
  expect(lb.status, lb.text).toBe(201);
  const name = `www.${z.domain}`;
  await until(
    () => ask(s.t, name),
    (r) => addresses(r).join() === primary.address,
    3000,
    'primary answered',
  );
  return { z, p, name };
}

describe('health checks end to end (private targets allowed, 1 s interval)', () => {
  const s: Setup = {} as Setup;
  let a: SwitchableHttpServer;
  let b: SwitchableHttpServer;
  beforeAll(async () => {
    s.t = await startTestApp({
      env: {
        HEALTH_ALLOW_PRIVATE_TARGETS: 'true',
        HEALTH_CHECK_INTERVAL_S: '1',
        // Flap damping opted into for the deployment (the default moves on one check).
        HEALTH_FALL: '2',
        HEALTH_RISE: '2',
      },
    });
    s.token = (await s.t.signUp()).token;
    a = await startSwitchableServer(200, undefined, '127.0.0.1');
    b = await startSwitchableServer(200, undefined, '127.0.0.2');
  });
  afterAll(async () => {
    await s.t?.close();
    await Promise.all([a?.close(), b?.close()]);
  });

  it('a failing member leaves the answer within 2 s of its probe and returns when it recovers', async () => {
    a.status = 200;
    b.status = 200;
    const { z, p, name } = await failoverLb(
      s,
      { address: '127.0.0.1', port: a.port },
      { address: '127.0.0.2', port: b.port },
    );
    await nextProbe(b);
    expect(b.requests.at(-1)).toMatchObject({
      method: 'GET',
      url: '/health',
      host: '127.0.0.2',
    });

    b.status = 503;
    await nextProbe(b);
    // Flap damping: one failed probe does not take it out; the second in a row does (HEALTH_FALL).
    expect(addresses(await ask(s.t, name)).join()).toBe('127.0.0.2');
    const failedAt = await nextProbe(b);
    const goneAt = await until(
      () => ask(s.t, name),
      (r) => addresses(r).join() === '127.0.0.1',
      3000,
      'b left',
    );
    expect(goneAt - failedAt).toBeLessThan(PROPAGATION_MS);

    const read = await s.t.request('GET', `${ZONES}/${z.id}/pools/${p.id}`, {
      token: s.token,
    });
    expect(read.body.healthy_members).toBe(1);
    expect(read.body.members.find((m: { id: number }) => m.id === p.memberIds[1])).toMatchObject({
      health_status: 'unhealthy',
      last_error: 'HTTP 503 Service Unavailable',
      last_check_at: expect.any(String),
    });

    b.status = 200;
    await nextProbe(b);
    expect(addresses(await ask(s.t, name)).join()).toBe('127.0.0.1');
    const recoveredAt = await nextProbe(b);
    const backAt = await until(
      () => ask(s.t, name),
      (r) => addresses(r).join() === '127.0.0.2',
      3000,
      'b back',
    );
    expect(backAt - recoveredAt).toBeLessThan(PROPAGATION_MS);

    // The checker's metrics saw both verdicts; the member's gauge shows its last one.
    const metrics = (await s.t.request('GET', '/metrics')).text as string;
    const sample = (series: string): number =>
      Number(
        metrics
          .split('\n')
          .find((l) => l.startsWith(`${series} `))
          ?.split(' ')[1] ?? NaN,
      );
    expect(sample('health_probe_results_total{pop="FRA",result="unhealthy"}')).toBeGreaterThanOrEqual(1);
    expect(sample('health_probe_results_total{pop="FRA",result="healthy"}')).toBeGreaterThanOrEqual(2);
    expect(sample(`health_member_status{zone="${z.id}",pool="${p.id}",member="${p.memberIds[1]}"}`)).toBe(1);
    expect(
      sample(`dns_lb_answers_total{zone="${z.domain}",lb="${name}",cascade_hit="default",reason="ok"}`),
    ).toBeGreaterThanOrEqual(3);
  });

  it('a member whose origin alternates pass and fail every probe stays in one state', async () => {
    // An origin of its own: the shared ones are probed for the members of earlier tests too.
    const flapping = await startSwitchableServer(200, undefined, '127.0.0.3');
    const { z, p, name } = await failoverLb(
      s,
      { address: '127.0.0.1', port: a.port },
      { address: '127.0.0.3', port: flapping.port },
    );
    await nextProbe(flapping);
    flapping.cycle = [503, 200];
    const seen = new Set<string>();
    const until6 = flapping.requests.length + 6;
    try {
      while (flapping.requests.length < until6) {
        seen.add(addresses(await ask(s.t, name)).join());
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await flapping.close();
    }
    expect([...seen]).toEqual(['127.0.0.3']);
    const history = await s.t.request(
      'GET',
      `${ZONES}/${z.id}/pools/${p.id}/members/${p.memberIds[1]}/health-history?limit=6`,
      { token: s.token },
    );
    const statuses = history.body.probes.map((x: { status: string }) => x.status);
    expect(statuses).toContain('unhealthy');
    expect(statuses).toContain('healthy');
    expect(history.body.changes.map((c: { to: string }) => c.to)).toEqual(['healthy']);
  });

  it('a load balancer steps default → fallback → serve_last (or SERVFAIL) as its targets fail', async () => {
    a.status = 200;
    b.status = 200;
    const z = await zone(s);
    const primary = await pool(s, z.id, 'primary', [{ address: '127.0.0.1', port: a.port }]);
    const spare = await pool(s, z.id, 'spare', [{ address: '127.0.0.2', port: b.port }]);
    const lb = await s.t.request('POST', `${ZONES}/${z.id}/load-balancers`, {
      token: s.token,
      body: {
        hostname: 'app',
        default_pools: [primary.id],
        fallback_pool_id: spare.id,
      },
    });
    expect(lb.status, lb.text).toBe(201);
    const name = `app.${z.domain}`;
    const preview = async () =>
      (
        await s.t.request('POST', `${ZONES}/${z.id}/load-balancers/${lb.body.id}/preview`, {
          token: s.token,
          body: {},
        })
      ).body as { cascade_hit: string; reason: string; servfail: boolean };
    await until(
      () => ask(s.t, name),
      (r) => addresses(r).join() === '127.0.0.1',
      3000,
      'default pool',
    );
    expect(await preview()).toMatchObject({
      cascade_hit: 'default',
      reason: 'ok',
    });

    // Each step is visible over DNS and in preview within 2 s of the probe that caused it.
    const step = async (
      server: SwitchableHttpServer,
      dnsOk: (p: Packet) => boolean,
      hit: Record<string, unknown>,
    ) => {
      server.status = 503;
      const probedAt = await nextProbe(server);
      const dnsAt = await until(() => ask(s.t, name), dnsOk, 3000, `dns ${JSON.stringify(hit)}`);
      const previewAt = await until(
        preview,
        (p) => Object.entries(hit).every(([k, v]) => p[k as keyof typeof p] === v),
        3000,
        'preview',
      );
      expect(dnsAt - probedAt).toBeLessThan(PROPAGATION_MS);
      expect(previewAt - probedAt).toBeLessThan(PROPAGATION_MS);
    };
    await step(a, (r) => addresses(r).join() === '127.0.0.2', {
      cascade_hit: 'fallback',
      reason: 'ok',
    });
    await step(b, (r) => rcodeOf(r) === 'NOERROR' && addresses(r).length > 0, {
      cascade_hit: 'serve_last',
      reason: 'all_unhealthy_serve_last',
    });

    const patched = await s.t.request('PATCH', `${ZONES}/${z.id}/load-balancers/${lb.body.id}`, {
      token: s.token,
      body: { on_all_unhealthy: 'servfail' },
    });
    expect(patched.status, patched.text).toBe(200);
    await until(
      () => ask(s.t, name),
      (r) => rcodeOf(r) === 'SERVFAIL',
      3000,
      'servfail',
    );
    expect(await preview()).toMatchObject({
      reason: 'all_unhealthy',
      servfail: true,
    });

    a.status = 200;
    const recoveredAt = await nextProbe(a);
    const backAt = await until(
      () => ask(s.t, name),
      (r) => addresses(r).join() === '127.0.0.1',
      3000,
      'default back',
    );
    expect(backAt - recoveredAt).toBeLessThan(PROPAGATION_MS);
    b.status = 200;
  });

  it('POST .../health-check runs a probe now under both families', async () => {
    a.status = 503;
    const z = await zone(s);
    const p = await pool(s, z.id, 'api', [{ address: '127.0.0.1', port: a.port }]);
    for (const family of ['pools', 'lb-pools']) {
      const before = a.requests.length;
      const res = await s.t.request(
        'POST',
        `${ZONES}/${z.id}/${family}/${p.id}/members/${p.memberIds[0]}/health-check`,
        { token: s.token },
      );
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({
        member_id: p.memberIds[0],
        health_status: 'unhealthy',
        probe_status: 'unhealthy',
        pop: 'FRA',
        last_check_at: expect.any(String),
        last_error: 'HTTP 503 Service Unavailable',
        latency_ms: expect.any(Number),
      });
      expect(a.requests.length).toBeGreaterThan(before);
    }
    // Flap damping: the member comes back after two passes in a row (HEALTH_RISE), not one. The
    // checker's own 1 s round may probe between the flip and the call: then the call's pass is the
    // second, and only then may it answer healthy.
    a.status = 200;
    const flippedAt = a.requests.length;
    const checkNow = () =>
      s.t.request('POST', `${ZONES}/${z.id}/pools/${p.id}/members/${p.memberIds[0]}/health-check`, {
        token: s.token,
      });
    const first = (await checkNow()).body;
    expect(first).toMatchObject({ probe_status: 'healthy', last_error: null });
    if (first.health_status === 'healthy') expect(a.requests.length - flippedAt).toBeGreaterThanOrEqual(2);
    else expect(first.health_status).toBe('unhealthy');
    expect((await checkNow()).body).toMatchObject({ health_status: 'healthy', probe_status: 'healthy' });
    const missing = await s.t.request('POST', `${ZONES}/${z.id}/pools/${p.id}/members/999999/health-check`, {
      token: s.token,
    });
    expect(missing.status).toBe(404);
  });
});

describe.skipIf(!withPostgres)('health checks across processes (PostgreSQL + Redis)', () => {
  it('two checker processes probe each member exactly once per interval in total', async () => {
    const INTERVAL_MS = 2000;
    const env = {
      HEALTH_ALLOW_PRIVATE_TARGETS: 'true',
      HEALTH_CHECK_INTERVAL_S: String(INTERVAL_MS / 1000),
    };
    const t = await startTestApp({ env });
    const peer = await t.startPeer({ ...env, ROLE: 'checker' });
    const servers = await Promise.all([0, 1, 2, 3].map(() => startSwitchableServer(200)));
    try {
      const s = { t, token: (await t.signUp()).token };
      const z = await zone(s);
      await pool(
        s,
        z.id,
        'many',
        servers.map((srv) => ({ address: '127.0.0.1', port: srv.port })),
      );
      const from = Date.now() + INTERVAL_MS; // after both checkers have read the new members
      await new Promise((r) => setTimeout(r, 4 * INTERVAL_MS));
      const to = Date.now() - 200;
      for (const srv of servers) {
        const times = srv.requests.map((r) => r.at).filter((at) => at >= from && at < to);
        // Once per interval in total: each member's probes are an interval apart (two checkers
        // probing the same slot would show as a gap near 0), and none is skipped.
        const gaps = times.slice(1).map((at, i) => at - times[i]!);
        for (const gap of gaps) expect(Math.abs(gap - INTERVAL_MS)).toBeLessThan(INTERVAL_MS / 2);
        expect(times.length).toBeGreaterThanOrEqual(Math.floor((to - from) / INTERVAL_MS) - 1);
      }
    } finally {
      await peer.stop();
      await t.close();
      await Promise.all(servers.map((srv) => srv.close()));
    }
  });

  it('a checker in production mode never probes a member on a private address', async () => {
    // The API (private targets allowed, as in tests) creates the member; the checker does not allow them.
    const t = await startTestApp({
      env: { ROLE: 'api', HEALTH_ALLOW_PRIVATE_TARGETS: 'true' },
    });
    const peer = await t.startPeer({
      ROLE: 'checker',
      HEALTH_ALLOW_PRIVATE_TARGETS: 'false',
      HEALTH_CHECK_INTERVAL_S: '1',
    });
    const server = await startSwitchableServer(200);
    try {
      const s = { t, token: (await t.signUp()).token };
      const z = await zone(s);
      const p = await pool(s, z.id, 'private', [{ address: '127.0.0.1', port: server.port }]);
      const member = async () =>
        (
          await t.request('GET', `${ZONES}/${z.id}/pools/${p.id}`, {
            token: s.token,
          })
        ).body.members[0];
      await until(member, (m) => m.last_check_at !== null, 5000, 'checked');
      expect(await member()).toMatchObject({
        health_status: 'unhealthy',
        last_error: FORBIDDEN_TARGET_TEXT,
      });
      await new Promise((r) => setTimeout(r, 1500));
      expect(server.requests).toEqual([]);
    } finally {
      await peer.stop();
      await t.close();
      await server.close();
    }
  });
});
