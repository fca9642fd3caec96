/**
 * What-if preview, matrix and traffic shares against what DNS really answers once the same change
 * is saved: an unsaved load balancer change, a forced unhealthy pool (then a real failing health
 * check), and a changed member weight (exact shares, then 400 real UDP answers within a binomial bound that
 * a correct product exceeds less than once in a million runs). The
 * product as `npm start` runs it (startTestApp), real UDP queries, members on loopback with
 * health checks against a local HTTP server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binomialTolerance } from '../../src/testing/binomial-tolerance.ts';
import { eventually } from '../../src/testing/eventually.ts';
import { freePort } from '../../src/testing/free-port.ts';
import { startSwitchableServer, type SwitchableHttpServer } from '../../src/testing/probe-target-servers.ts';
import { ask } from '../../src/testing/product-process.ts';
import { startTestApp, type TestApp } from '../../src/testing/test-app.ts';

const ZONES = '/api/v1/dns/zones';
const DOMAIN = 'what-if.example';

interface Pool {
  id: number;
  members: { id: number; address: string }[];
}

describe('what-if preview, matrix and traffic shares agree with DNS after the change is saved', () => {
  let t: TestApp;
  let port: number;
  let token: string;
  let zoneId: number;
  let checked: SwitchableHttpServer;
  let a: Pool;
  let b: Pool;
  let c: Pool;
  let www: number;
  let weights: number;

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await t.request(method, `${ZONES}/${zoneId}${path}`, {
      token,
      ...(body !== undefined ? { body } : {}),
    });
    expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
    return res.body;
  };
  const pool = async (name: string, members: Record<string, unknown>[]): Promise<Pool> =>
    call('POST', '/pools', { name, members });

  beforeAll(async () => {
    port = await freePort();
    checked = await startSwitchableServer(200);
    t = await startTestApp({
      env: { DNS_PORT: String(port), HEALTH_ALLOW_PRIVATE_TARGETS: 'true', RRL_RATE: '0', POP: 'FRA' },
    });
    token = (await t.signUp()).token;
    zoneId = (await t.request('POST', ZONES, { token, body: { domain: DOMAIN } })).body.id;
    a = await pool('a', [{ address: '127.0.0.1', health_mode: 'http', health_port: checked.port }]);
    b = await pool('b', [{ address: '127.0.0.2' }]);
    c = await pool('c', [{ address: '127.0.0.3' }, { address: '127.0.0.4' }]);
    www = (
      await call('POST', '/load-balancers', {
        hostname: 'www',
        steering_policy: 'geo',
        default_pools: [a.id],
        fallback_pool_id: b.id,
        country_pools: { BR: [c.id] },
      })
    ).id;
    weights = (await call('POST', '/load-balancers', { hostname: 'weights', default_pools: [c.id] })).id;
    await eventually(async () => expect(await ask(port, `www.${DOMAIN}`, 'udp')).toEqual(['127.0.0.1']));
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await checked?.close();
  });

  const preview = (lb: number, body: unknown) => call('POST', `/load-balancers/${lb}/preview`, body);

  it('an unsaved load balancer change: the preview answers what DNS answers once it is saved', async () => {
    const what = await preview(www, { what_if: { load_balancer: { default_pools: [b.id] } } });
    expect(what).toMatchObject({
      changed: true,
      baseline: { pool: { id: a.id }, answers: [{ address: '127.0.0.1' }] },
      pool: { id: b.id },
      answers: [{ address: '127.0.0.2' }],
    });
    // Never saved.
    expect((await call('GET', `/load-balancers/${www}`)).default_pools).toEqual([a.id]);
    expect(await ask(port, `www.${DOMAIN}`, 'udp')).toEqual(['127.0.0.1']);
    await call('PATCH', `/load-balancers/${www}`, { default_pools: [b.id] });
    await eventually(async () =>
      expect(await ask(port, `www.${DOMAIN}`, 'udp')).toEqual(
        what.answers.map((x: { address: string }) => x.address),
      ),
    );
    await call('PATCH', `/load-balancers/${www}`, { default_pools: [a.id] });
    await eventually(async () => expect(await ask(port, `www.${DOMAIN}`, 'udp')).toEqual(['127.0.0.1']));
  });

  it('a forced unhealthy pool: the preview answers what DNS answers once its check really fails', async () => {
    const what = await preview(www, { what_if: { health: { pools: { [a.id]: 'unhealthy' } } } });
    expect(what).toMatchObject({ changed: true, cascade_hit: 'fallback', pool: { id: b.id } });
    checked.status = 503;
    // One failed check takes a healthy member down (no flap damping by default).
    const checkNow = () => call('POST', `/pools/${a.id}/members/${a.members[0]!.id}/health-check`);
    expect((await checkNow()).health_status).toBe('unhealthy');
    await eventually(async () =>
      expect(await ask(port, `www.${DOMAIN}`, 'udp')).toEqual(
        what.answers.map((x: { address: string }) => x.address),
      ),
    );
    // The stored health now equals the forced one: nothing changes any more.
    expect((await preview(www, { what_if: { health: { pools: { [a.id]: 'unhealthy' } } } })).changed).toBe(
      false,
    );
    checked.status = 200;
    expect((await checkNow()).health_status).toBe('healthy');
    await eventually(async () => expect(await ask(port, `www.${DOMAIN}`, 'udp')).toEqual(['127.0.0.1']));
  });

  it('a changed weight: the what-if shares are the saved shares, and 400 DNS answers follow them', async () => {
    const [c3, c4] = c.members as [Pool['members'][number], Pool['members'][number]];
    const whatIf = { members: { [c3.id]: { weight: 3 } } };
    const before = await call('GET', `/load-balancers/${weights}/traffic-share`);
    expect(before.members.map((m: { share: number }) => m.share)).toEqual([0.5, 0.5]);
    const planned = await call('POST', `/load-balancers/${weights}/traffic-share`, { what_if: whatIf });
    expect(planned.members).toEqual([
      expect.objectContaining({ member_id: c3.id, share: 0.75 }),
      expect.objectContaining({ member_id: c4.id, share: 0.25 }),
    ]);
    await call('PATCH', `/pools/${c.id}/members/${c3.id}`, { weight: 3 });
    const saved = await call('GET', `/load-balancers/${weights}/traffic-share`);
    expect(saved.members).toEqual(planned.members);
    // Wait until the change is served, then count real answers.
    await eventually(async () => {
      let three = 0;
      for (let i = 0; i < 40; i++)
        if ((await ask(port, `weights.${DOMAIN}`, 'udp'))?.[0] === '127.0.0.3') three++;
      expect(three).toBeGreaterThan(22);
    });
    let three = 0;
    const n = 400;
    for (let i = 0; i < n; i++)
      if ((await ask(port, `weights.${DOMAIN}`, 'udp'))?.[0] === '127.0.0.3') three++;
    // About 5σ (43 of 400): a correct product strays past it less than once in a million runs,
    // while the former 1:1 split (200 of 400) stays far outside.
    expect(Math.abs(three - 0.75 * n)).toBeLessThanOrEqual(binomialTolerance(n, 0.75));
  });

  it('the matrix names the moved locations only, and checks the what_if like the real routes', async () => {
    const rows = await call('POST', `/load-balancers/${www}/preview/matrix`, {
      what_if: { load_balancer: { country_pools: { BR: [b.id], AR: [c.id] } } },
    });
    const moved = rows.filter((r: { moved: boolean }) => r.moved);
    expect(moved).toEqual([
      {
        location: 'AR',
        before: { cascade_hit: 'default', pool: { id: a.id, name: 'a' } },
        after: { cascade_hit: 'country', pool: { id: c.id, name: 'c' } },
        moved: true,
      },
      {
        location: 'BR',
        before: { cascade_hit: 'country', pool: { id: c.id, name: 'c' } },
        after: { cascade_hit: 'country', pool: { id: b.id, name: 'b' } },
        moved: true,
      },
    ]);
    // Every region (in region order), then the countries of the maps.
    const regions = (await t.request('GET', '/api/v1/dns/lb-regions', { token })).body as { code: string }[];
    expect(rows.map((r: { location: string }) => r.location)).toEqual([
      ...regions.map((r) => r.code),
      'AR',
      'BR',
    ]);
    const bad = await t.request('POST', `${ZONES}/${zoneId}/load-balancers/${www}/preview`, {
      token,
      body: { what_if: { load_balancer: { default_pools: [999_999] }, members: { 424242: { weight: 2 } } } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((d: { loc: unknown[]; msg: string }) => [d.loc.join('.'), d.msg])).toEqual([
      ['body.what_if.members', 'Unknown member ids for this zone: [424242]'],
    ]);
    const badLb = await t.request('POST', `${ZONES}/${zoneId}/load-balancers/${www}/preview`, {
      token,
      body: { what_if: { load_balancer: { default_pools: [999_999] } } },
    });
    expect(badLb.body.detail[0]).toMatchObject({
      loc: ['body', 'what_if', 'load_balancer', 'default_pools'],
      msg: 'Unknown pool ids for this zone: [999999]',
    });
    const typo = await t.request('POST', `${ZONES}/${zoneId}/load-balancers/${www}/preview`, {
      token,
      body: { what_if: { members: { [c.members[0]!.id]: { weight: 101 } } } },
    });
    expect(typo.status).toBe(422);
  });
});
