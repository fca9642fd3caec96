import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';

const ZONES = '/api/v1/dns/zones';
const FAMILIES = ['pools', 'lb-pools'] as const;

describe('DNS origin pools routes', () => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  let domains = 0;
  beforeAll(async () => {
    t = await startTestApp();
    alice = (await t.signUp()).token;
    bob = (await t.signUp()).token;
  });
  afterAll(async () => t?.close());

  async function zone(token = alice): Promise<number> {
    const res = await t.request('POST', ZONES, { token, body: { domain: `pools${++domains}.example` } });
    expect(res.status).toBe(201);
    return res.body.id as number;
  }
  const serialOf = async (zoneId: number) =>
    (await t.request('GET', `${ZONES}/${zoneId}`, { token: alice })).body.serial as number;
  const post = (zoneId: number, body: unknown, family = 'pools', token = alice) =>
    t.request('POST', `${ZONES}/${zoneId}/${family}`, { token, body });

  it('creates a pool with the defaults, the same object under both addresses', async () => {
    const z = await zone();
    const res = await post(z, { name: 'web' });
    expect(res.status).toBe(201);
    // The create answer carries the linter's findings; GET answers the pool alone.
    const { warnings, ...created } = res.body;
    expect(warnings).toEqual([
      { severity: 'info', code: 'pool_unreferenced', message: expect.any(String), path: '' },
    ]);
    expect(created).toEqual({
      id: expect.any(Number),
      zone_id: z,
      name: 'web',
      description: null,
      algorithm: 'weighted_rr',
      ttl: 30,
      session_affinity: 'none',
      primary_location_code: null,
      enabled: true,
      health_fall: null,
      health_rise: null,
      hostname: null,
      members: [],
      healthy_members: 0,
      total_members: 0,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    for (const family of FAMILIES) {
      const got = await t.request('GET', `${ZONES}/${z}/${family}/${res.body.id}`, { token: alice });
      expect(got.status).toBe(200);
      expect(got.body).toEqual(created);
      const list = await t.request('GET', `${ZONES}/${z}/${family}`, { token: alice });
      expect(list.body).toEqual([created]);
    }
  });

  it('takes every field, and PATCH changes only what it is given', async () => {
    const z = await zone();
    const res = await post(
      z,
      {
        name: 'eu',
        description: 'Europe',
        algorithm: 'failover',
        ttl: 3600,
        session_affinity: 'client_ip',
        primary_location_code: 'fra',
        enabled: false,
      },
      'lb-pools',
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      description: 'Europe',
      algorithm: 'failover',
      ttl: 3600,
      session_affinity: 'client_ip',
      primary_location_code: 'FRA',
      enabled: false,
    });
    const patched = await t.request('PATCH', `${ZONES}/${z}/pools/${res.body.id}`, {
      token: alice,
      body: { ttl: 5, primary_location_code: null, description: null },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      name: 'eu',
      ttl: 5,
      primary_location_code: null,
      description: null,
      algorithm: 'failover',
    });
    const renamed = await t.request('PATCH', `${ZONES}/${z}/lb-pools/${res.body.id}`, {
      token: alice,
      body: { name: 'eu-2', enabled: true },
    });
    expect(renamed.body).toMatchObject({ name: 'eu-2', enabled: true, ttl: 5 });
  });

  it('answers 422 naming the field for values out of range or unknown', async () => {
    const z = await zone();
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: 'a', ttl: 4 }, 'ttl'],
      [{ name: 'a', ttl: 3601 }, 'ttl'],
      [{ name: 'a', algorithm: 'round_robin' }, 'algorithm'],
      [{ name: 'a', session_affinity: 'cookie' }, 'session_affinity'],
      [{ name: 'a', enabled: 'yes' }, 'enabled'],
      [{ name: 'a', primary_location_code: 'NOWHERE' }, 'primary_location_code'],
      [{ name: 'a', hostname: 'www' }, 'hostname'], // only the /lb-pools family takes it
      [{ name: 'a', healthy_members: 1 }, 'healthy_members'],
      [{ name: 'a', health_fall: 0 }, 'health_fall'],
      [{ name: 'a', health_fall: 11 }, 'health_fall'],
      [{ name: 'a', health_rise: 1.5 }, 'health_rise'],
    ];
    for (const [body, field] of cases) {
      const res = await post(z, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.detail[0].loc, JSON.stringify(body)).toEqual(['body', field]);
    }
    expect((await post(z, {})).body.detail[0]).toMatchObject({ type: 'missing', loc: ['body', 'name'] });
    expect((await post(z, { name: 'a', primary_location_code: 'NOWHERE' })).body.detail[0].msg).toBe(
      'Unknown location code: NOWHERE',
    );
    const ok = await post(z, { name: 'b' });
    const patch = await t.request('PATCH', `${ZONES}/${z}/pools/${ok.body.id}`, {
      token: alice,
      body: { ttl: 4 },
    });
    expect(patch.status).toBe(422);
    expect(patch.body.detail[0].loc).toEqual(['body', 'ttl']);
  });

  it('takes flap damping per pool: health_fall and health_rise 1–10, null for the deployment default', async () => {
    const z = await zone();
    const res = await post(z, { name: 'damped', health_fall: 3, health_rise: 10 });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ health_fall: 3, health_rise: 10 });
    const path = `${ZONES}/${z}/pools/${res.body.id}`;
    const patched = await t.request('PATCH', path, { token: alice, body: { health_fall: null } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ health_fall: null, health_rise: 10 });
    expect((await t.request('GET', path, { token: alice })).body).toMatchObject({
      health_fall: null,
      health_rise: 10,
    });
    const bad = await t.request('PATCH', path, { token: alice, body: { health_rise: 11 } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'health_rise']);
  });

  it('keeps names unique in the zone, with each family its own message', async () => {
    const z = await zone();
    const a = await post(z, { name: 'dup' });
    expect((await post(z, { name: 'dup' })).body).toEqual({
      detail: 'Pool name already exists in this zone',
    });
    const lb = await post(z, { name: 'dup' }, 'lb-pools');
    expect(lb.status).toBe(409);
    expect(lb.body).toEqual({ detail: 'Pool name already exists' });
    const b = await post(z, { name: 'other' });
    const rename = (family: string) =>
      t.request('PATCH', `${ZONES}/${z}/${family}/${b.body.id}`, { token: alice, body: { name: 'dup' } });
    expect((await rename('pools')).body).toEqual({ detail: 'Pool name already exists in this zone' });
    expect((await rename('lb-pools')).body).toEqual({ detail: 'Pool name already exists' });
    // The same name in another zone is fine; renaming a pool to its own name too.
    expect((await post(await zone(), { name: 'dup' })).status).toBe(201);
    const same = await t.request('PATCH', `${ZONES}/${z}/pools/${a.body.id}`, {
      token: alice,
      body: { name: 'dup' },
    });
    expect(same.status).toBe(200);
  });

  it('creates inline members all or nothing, under either family', async () => {
    const z = await zone();
    for (const family of FAMILIES) {
      const res = await post(
        z,
        {
          name: `inline-${family}`,
          members: [
            { address: '8.8.8.8' },
            { address: '2606:4700:0:0:0:0:0:1111', address_type: 'AAAA', weight: 5, health_mode: 'http' },
          ],
        },
        family,
      );
      expect(res.status).toBe(201);
      expect(res.body.total_members).toBe(2);
      expect(res.body.healthy_members).toBe(2);
      expect(res.body.members.map((m: { address: string }) => m.address)).toEqual([
        '8.8.8.8',
        '2606:4700::1111',
      ]);
      expect(res.body.members[1]).toMatchObject({
        pool_id: res.body.id,
        weight: 5,
        health_status: 'unknown',
      });
    }
    const bad = await post(z, { name: 'broken', members: [{ address: '8.8.4.4' }, { address: '10.0.0.1' }] });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toEqual([
      {
        type: 'value_error',
        loc: ['body', 'members', 1, 'address'],
        msg: 'health-check target targets a private or reserved network',
        input: '10.0.0.1',
        ctx: {},
      },
    ]);
    const schema = await post(z, { name: 'broken', members: [{ address: '8.8.4.4', weight: 0 }] });
    expect(schema.body.detail[0].loc).toEqual(['body', 'members', 0, 'weight']);
    const list = await t.request('GET', `${ZONES}/${z}/pools`, { token: alice });
    expect(list.body.map((p: { name: string }) => p.name)).not.toContain('broken');
    const many = await post(z, {
      name: 'many',
      members: Array.from({ length: 21 }, (_, i) => ({ address: `8.8.8.${i + 1}` })),
    });
    expect(many.status).toBe(403);
    expect(many.body).toEqual({ detail: 'LB member limit reached (20)' });
  });

  it('through /lb-pools with hostname also creates a load balancer, and reports its hostname', async () => {
    const z = await zone();
    const domain = (await t.request('GET', `${ZONES}/${z}`, { token: alice })).body.domain as string;
    const res = await post(
      z,
      { name: 'app', hostname: 'App', ttl: 60, members: [{ address: '1.1.1.1' }] },
      'lb-pools',
    );
    expect(res.status).toBe(201);
    expect(res.body.hostname).toBe(`app.${domain}`);
    const lbs = await t.request('GET', `${ZONES}/${z}/load-balancers`, { token: alice });
    expect(lbs.body).toHaveLength(1);
    expect(lbs.body[0]).toMatchObject({
      name: `app.${domain}`,
      hostname: `app.${domain}`,
      ttl: 60,
      default_pools: [res.body.id],
    });
    expect(
      (await t.request('GET', `${ZONES}/${z}/pools/${res.body.id}`, { token: alice })).body.hostname,
    ).toBe(`app.${domain}`);
    // A second pool for a taken hostname: 409 and nothing created.
    const again = await post(z, { name: 'app2', hostname: 'app' }, 'lb-pools');
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ detail: 'A load balancer already owns this hostname' });
    expect((await t.request('GET', `${ZONES}/${z}/pools`, { token: alice })).body).toHaveLength(1);
    // The pool is now in use.
    const del = await t.request('DELETE', `${ZONES}/${z}/lb-pools/${res.body.id}`, { token: alice });
    expect(del.status).toBe(409);
    expect(del.body).toEqual({
      detail: 'Pool is referenced by a load balancer; remove it from maps/default/fallback first',
    });
  });

  it('deletes a pool (204) and answers 404 for ids not in the zone', async () => {
    const z = await zone();
    const other = await zone();
    const p = await post(z, { name: 'gone' });
    const foreign = await post(other, { name: 'foreign' });
    for (const family of FAMILIES) {
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { ttl: 60 }],
        ['DELETE', undefined],
      ] as const) {
        const res = await t.request(method, `${ZONES}/${z}/${family}/${foreign.body.id}`, {
          token: alice,
          body,
        });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ detail: 'Origin pool not found' });
      }
    }
    expect((await t.request('DELETE', `${ZONES}/${z}/pools/${p.body.id}`, { token: alice })).status).toBe(
      204,
    );
    expect((await t.request('GET', `${ZONES}/${z}/lb-pools/${p.body.id}`, { token: alice })).status).toBe(
      404,
    );
  });

  it("hides another account's zone: 404 Zone not found on every route", async () => {
    const z = await zone();
    const p = await post(z, { name: 'mine', members: [{ address: '9.9.9.9' }] });
    const m = p.body.members[0].id as number;
    for (const family of FAMILIES) {
      const routes: [string, string, unknown?][] = [
        ['GET', `${ZONES}/${z}/${family}`],
        ['POST', `${ZONES}/${z}/${family}`, { name: 'theirs' }],
        ['GET', `${ZONES}/${z}/${family}/${p.body.id}`],
        ['PATCH', `${ZONES}/${z}/${family}/${p.body.id}`, { ttl: 60 }],
        ['DELETE', `${ZONES}/${z}/${family}/${p.body.id}`],
        ['POST', `${ZONES}/${z}/${family}/${p.body.id}/members`, { address: '8.8.8.8' }],
        ['PATCH', `${ZONES}/${z}/${family}/${p.body.id}/members/${m}`, { weight: 2 }],
        ['DELETE', `${ZONES}/${z}/${family}/${p.body.id}/members/${m}`],
      ];
      for (const [method, path, body] of routes) {
        const res = await t.request(method, path, { token: bob, body });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body).toEqual({ detail: 'Zone not found' });
      }
    }
    expect((await t.request('GET', `${ZONES}/${z}/pools`, { token: alice })).body[0].total_members).toBe(1);
    expect((await t.request('GET', `${ZONES}/${z}/pools`)).status).toBe(401);
  });

  it('limits a zone to 50 pools (403)', async () => {
    const z = await zone();
    for (let i = 0; i < 50; i++) expect((await post(z, { name: `p${i}` })).status).toBe(201);
    for (const family of FAMILIES) {
      const res = await post(z, { name: 'one-too-many' }, family);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: 'Origin pool limit reached (50)' });
    }
  });

  it('moves the zone serial on every pool change', async () => {
    const z = await zone();
    let serial = await serialOf(z);
    const p = await post(z, { name: 's' });
    expect(await serialOf(z)).toBeGreaterThan(serial);
    serial = await serialOf(z);
    await t.request('PATCH', `${ZONES}/${z}/pools/${p.body.id}`, { token: alice, body: { ttl: 90 } });
    expect(await serialOf(z)).toBeGreaterThan(serial);
    serial = await serialOf(z);
    await t.request('DELETE', `${ZONES}/${z}/pools/${p.body.id}`, { token: alice });
    expect(await serialOf(z)).toBeGreaterThan(serial);
    serial = await serialOf(z);
    expect((await post(z, { name: 'x', ttl: 1 })).status).toBe(422);
    expect(await serialOf(z)).toBe(serial);
  });
});
