import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNTRIES } from '../../../geo/geo-data.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';

const ZONES = '/api/v1/dns/zones';
const HAS_RECORDS = 'Hostname already has A/AAAA/CNAME records; remove them before creating a load balancer';
const OWNED = 'A load balancer already owns this hostname';
const RECORD_AT_LB = 'A load balancer owns this hostname; A/AAAA/CNAME records cannot be added there';

describe('DNS load balancers routes', () => {
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

  /** A zone with `pools` pools; answers the zone id, its domain and the pool ids. */
  async function zone(pools = 2): Promise<{ id: number; domain: string; pools: number[] }> {
    const z = await t.request('POST', ZONES, { token: alice, body: { domain: `lb${++domains}.example` } });
    expect(z.status).toBe(201);
    const ids: number[] = [];
    for (let i = 0; i < pools; i++) {
      const p = await t.request('POST', `${ZONES}/${z.body.id}/pools`, {
        token: alice,
        body: { name: `p${i}` },
      });
      ids.push(p.body.id as number);
    }
    return { id: z.body.id as number, domain: z.body.domain as string, pools: ids };
  }
  const create = (zoneId: number, body: unknown, token = alice) =>
    t.request('POST', `${ZONES}/${zoneId}/load-balancers`, { token, body });
  const update = (zoneId: number, lbId: number, body: unknown) =>
    t.request('PATCH', `${ZONES}/${zoneId}/load-balancers/${lbId}`, { token: alice, body });
  const addRecord = (zoneId: number, body: unknown) =>
    t.request('POST', `${ZONES}/${zoneId}/records`, { token: alice, body });

  it('creates a load balancer with the defaults; GET and list answer it', async () => {
    const z = await zone();
    const res = await create(z.id, { hostname: 'www', default_pools: [z.pools[1], z.pools[0]] });
    expect(res.status).toBe(201);
    // The create answer carries the linter's findings; GET answers the object alone.
    const { warnings, ...created } = res.body;
    expect(warnings).toEqual([expect.objectContaining({ code: 'no_enabled_members', severity: 'error' })]);
    expect(created).toEqual({
      id: expect.any(Number),
      zone_id: z.id,
      name: `www.${z.domain}`,
      hostname: `www.${z.domain}`,
      ttl: 30,
      session_affinity: 'none',
      steering_policy: 'off',
      location_strategy: 'pop',
      default_pools: [z.pools[1], z.pools[0]],
      fallback_pool_id: null,
      region_pools: {},
      country_pools: {},
      location_pools: {},
      on_all_unhealthy: 'serve_last',
      enabled: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const got = await t.request('GET', `${ZONES}/${z.id}/load-balancers/${res.body.id}`, { token: alice });
    expect(got.body).toEqual(created);
    expect((await t.request('GET', `${ZONES}/${z.id}/load-balancers`, { token: alice })).body).toEqual([
      created,
    ]);
    // The pool in its default list now reports the hostname.
    const pool = await t.request('GET', `${ZONES}/${z.id}/pools/${z.pools[1]}`, { token: alice });
    expect(pool.body.hostname).toBe(`www.${z.domain}`);
  });

  it('takes every field; hostnames resolve like record names; maps are normalised', async () => {
    const z = await zone(3);
    const [a, b, c] = z.pools as [number, number, number];
    const res = await create(z.id, {
      name: 'Global',
      hostname: '@',
      ttl: 3600,
      session_affinity: 'client_ip',
      steering_policy: 'geo',
      location_strategy: 'resolver_ip',
      default_pools: [a],
      fallback_pool_id: c,
      region_pools: { weu: [b, a], ENAM: [a] },
      country_pools: { de: [b] },
      location_pools: { fra: [b], IAD: [a] },
      on_all_unhealthy: 'servfail',
      enabled: false,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Global',
      hostname: z.domain,
      ttl: 3600,
      session_affinity: 'client_ip',
      steering_policy: 'geo',
      location_strategy: 'resolver_ip',
      fallback_pool_id: c,
      region_pools: { WEU: [b, a], ENAM: [a] },
      country_pools: { DE: [b] },
      location_pools: { FRA: [b], IAD: [a] },
      on_all_unhealthy: 'servfail',
      enabled: false,
    });
    const fqdn = await create(z.id, { hostname: `API.${z.domain}.`, default_pools: [a] });
    expect(fqdn.body.hostname).toBe(`api.${z.domain}`);
    for (const policy of ['off', 'random', 'proximity']) {
      expect((await update(z.id, res.body.id, { steering_policy: policy })).body.steering_policy).toBe(
        policy,
      );
    }
    const patched = await update(z.id, res.body.id, {
      fallback_pool_id: null,
      region_pools: {},
      default_pools: [c, b],
      location_strategy: 'pop',
      enabled: true,
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      name: 'Global',
      fallback_pool_id: null,
      region_pools: {},
      country_pools: { DE: [b] },
      default_pools: [c, b],
      location_strategy: 'pop',
      enabled: true,
    });
  });

  it('answers 422 naming the field for bad values', async () => {
    const z = await zone();
    const p = z.pools[0]!;
    const cases: [Record<string, unknown>, (string | number)[], string?][] = [
      [{ default_pools: [p] }, ['body', 'hostname']],
      [{ hostname: 'a' }, ['body', 'default_pools']],
      [{ hostname: 'a', default_pools: [] }, ['body', 'default_pools']],
      [{ hostname: 'a', default_pools: [p], ttl: 4 }, ['body', 'ttl']],
      [{ hostname: 'a', default_pools: [p], ttl: 3601 }, ['body', 'ttl']],
      [{ hostname: 'a', default_pools: [p], name: '' }, ['body', 'name']],
      [{ hostname: 'a', default_pools: [p], name: 'n'.repeat(101) }, ['body', 'name']],
      [{ hostname: 'a', default_pools: [p], steering_policy: 'dynamic' }, ['body', 'steering_policy']],
      [{ hostname: 'a', default_pools: [p], location_strategy: 'ecs' }, ['body', 'location_strategy']],
      [{ hostname: 'a', default_pools: [p], session_affinity: 'cookie' }, ['body', 'session_affinity']],
      [{ hostname: 'a', default_pools: [p], on_all_unhealthy: 'drop' }, ['body', 'on_all_unhealthy']],
      [{ hostname: 'bad..name', default_pools: [p] }, ['body', 'hostname']],
      [{ hostname: '*.wild', default_pools: [p] }, ['body', 'hostname']],
      [
        { hostname: 'a', default_pools: [p], region_pools: { MARS: [p] } },
        ['body', 'region_pools', 'MARS'],
        'Unknown region code: MARS',
      ],
      [
        { hostname: 'a', default_pools: [p], country_pools: { XX: [p] } },
        ['body', 'country_pools', 'XX'],
        'Unknown country code: XX',
      ],
      [
        { hostname: 'a', default_pools: [p], location_pools: { ZZZ: [p] } },
        ['body', 'location_pools', 'ZZZ'],
        'Unknown location code: ZZZ',
      ],
      [
        { hostname: 'a', default_pools: [p, p] },
        ['body', 'default_pools'],
        'Pool ids must not repeat within a list',
      ],
    ];
    for (const [body, loc, msg] of cases) {
      const res = await create(z.id, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.detail[0].loc, JSON.stringify(body)).toEqual(loc);
      if (msg !== undefined) expect(res.body.detail[0].msg).toBe(msg);
    }
  });

  it("refuses pool ids that are not the zone's: Unknown pool ids for this zone: [...]", async () => {
    const z = await zone();
    const other = await zone(2);
    const [x, y] = other.pools as [number, number];
    const res = await create(z.id, { hostname: 'a', default_pools: [z.pools[0], y, x] });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      {
        type: 'value_error',
        loc: ['body', 'default_pools'],
        msg: `Unknown pool ids for this zone: [${x}, ${y}]`,
        input: [z.pools[0], y, x],
        ctx: {},
      },
    ]);
    const fallback = await create(z.id, {
      hostname: 'a',
      default_pools: [z.pools[0]],
      fallback_pool_id: 999999,
    });
    expect(fallback.body.detail[0]).toMatchObject({
      loc: ['body', 'fallback_pool_id'],
      msg: 'Unknown pool ids for this zone: [999999]',
    });
    const region = await create(z.id, {
      hostname: 'a',
      default_pools: [z.pools[0]],
      region_pools: { WEU: [x] },
    });
    expect(region.body.detail[0]).toMatchObject({
      loc: ['body', 'region_pools', 'WEU'],
      msg: `Unknown pool ids for this zone: [${x}]`,
    });
    const lb = await create(z.id, { hostname: 'a', default_pools: [z.pools[0]] });
    const patch = await update(z.id, lb.body.id, { country_pools: { FR: [y] } });
    expect(patch.status).toBe(422);
    expect(patch.body.detail[0].msg).toBe(`Unknown pool ids for this zone: [${y}]`);
  });

  it('one load balancer per hostname (409), also when PATCH moves one', async () => {
    const z = await zone();
    const a = await create(z.id, { hostname: 'a', default_pools: [z.pools[0]] });
    const dup = await create(z.id, { hostname: `A.${z.domain}`, default_pools: [z.pools[0]] });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ detail: OWNED });
    const b = await create(z.id, { hostname: 'b', default_pools: [z.pools[0]] });
    const move = await update(z.id, b.body.id, { hostname: 'a' });
    expect(move.status).toBe(409);
    expect(move.body).toEqual({ detail: OWNED });
    expect((await update(z.id, a.body.id, { hostname: 'a' })).status).toBe(200);
  });

  it('refuses a hostname holding A/AAAA/CNAME records, on create and on PATCH', async () => {
    const z = await zone();
    expect((await addRecord(z.id, { name: 'v4', type: 'A', content: '192.0.2.1' })).status).toBe(201);
    expect((await addRecord(z.id, { name: 'v6', type: 'AAAA', content: '2001:db8::1' })).status).toBe(201);
    expect((await addRecord(z.id, { name: 'alias', type: 'CNAME', content: 'v4' })).status).toBe(201);
    expect((await addRecord(z.id, { name: 'txt', type: 'TXT', content: '"hello"' })).status).toBe(201);
    for (const hostname of ['v4', 'v6', 'alias']) {
      const res = await create(z.id, { hostname, default_pools: [z.pools[0]] });
      expect(res.status, hostname).toBe(409);
      expect(res.body).toEqual({ detail: HAS_RECORDS });
    }
    const txt = await create(z.id, { hostname: 'txt', default_pools: [z.pools[0]] });
    expect(txt.status).toBe(201);
    const move = await update(z.id, txt.body.id, { hostname: 'v4' });
    expect(move.status).toBe(409);
    expect(move.body).toEqual({ detail: HAS_RECORDS });
  });

  it('refuses A/AAAA/CNAME records at a load balancer hostname (POST, PUT, import)', async () => {
    const z = await zone();
    await create(z.id, { hostname: 'lb', default_pools: [z.pools[0]] });
    for (const [type, content] of [
      ['A', '192.0.2.1'],
      ['AAAA', '2001:db8::1'],
      ['CNAME', 'elsewhere.example.'],
    ]) {
      const res = await addRecord(z.id, { name: 'lb', type, content });
      expect(res.status, type).toBe(409);
      expect(res.body).toEqual({ detail: RECORD_AT_LB });
    }
    expect((await addRecord(z.id, { name: 'lb', type: 'TXT', content: '"ok"' })).status).toBe(201);
    const other = await addRecord(z.id, { name: 'other', type: 'A', content: '192.0.2.1' });
    const put = await t.request('PUT', `${ZONES}/${z.id}/records/${other.body.id}`, {
      token: alice,
      body: { name: 'lb', type: 'A', content: '192.0.2.1' },
    });
    expect(put.status).toBe(409);
    expect(put.body).toEqual({ detail: RECORD_AT_LB });
    const imported = await t.request('POST', `${ZONES}/${z.id}/import`, {
      token: alice,
      body: { zone_file: `lb 300 IN A 192.0.2.7\nfine 300 IN A 192.0.2.8\n` },
    });
    expect(imported.status).toBe(422);
    expect(imported.body.detail[0]).toMatchObject({ loc: ['body', 'zone_file', 1], msg: RECORD_AT_LB });
  });

  it('refuses to delete a pool a load balancer refers to, wherever it does', async () => {
    const z = await zone(3);
    const [a, b, c] = z.pools as [number, number, number];
    const lb = await create(z.id, { hostname: 'x', default_pools: [a] });
    const inUse = async (pool: number) => {
      const res = await t.request('DELETE', `${ZONES}/${z.id}/pools/${pool}`, { token: alice });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        detail: 'Pool is referenced by a load balancer; remove it from maps/default/fallback first',
      });
    };
    await inUse(a);
    await update(z.id, lb.body.id, { fallback_pool_id: b });
    await inUse(b);
    await update(z.id, lb.body.id, { fallback_pool_id: null, region_pools: { WEU: [b] } });
    await inUse(b);
    await update(z.id, lb.body.id, { region_pools: {}, country_pools: { US: [c] } });
    await inUse(c);
    await update(z.id, lb.body.id, { country_pools: {}, location_pools: { IAD: [c] } });
    await inUse(c);
    await update(z.id, lb.body.id, { location_pools: {} });
    expect((await t.request('DELETE', `${ZONES}/${z.id}/pools/${c}`, { token: alice })).status).toBe(204);
    expect(
      (await t.request('DELETE', `${ZONES}/${z.id}/load-balancers/${lb.body.id}`, { token: alice })).status,
    ).toBe(204);
    expect((await t.request('DELETE', `${ZONES}/${z.id}/pools/${a}`, { token: alice })).status).toBe(204);
    // With the load balancer gone its hostname takes records again.
    expect((await addRecord(z.id, { name: 'x', type: 'A', content: '192.0.2.1' })).status).toBe(201);
  });

  it('answers 404 for ids not in the zone and Zone not found for another account', async () => {
    const z = await zone();
    const other = await zone();
    const lb = await create(z.id, { hostname: 'mine', default_pools: [z.pools[0]] });
    const foreign = await create(other.id, { hostname: 'theirs', default_pools: [other.pools[0]] });
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { ttl: 60 }],
      ['DELETE', undefined],
    ] as const) {
      const res = await t.request(method, `${ZONES}/${z.id}/load-balancers/${foreign.body.id}`, {
        token: alice,
        body,
      });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Load balancer not found' });
    }
    const routes: [string, string, unknown?][] = [
      ['GET', `${ZONES}/${z.id}/load-balancers`],
      ['POST', `${ZONES}/${z.id}/load-balancers`, { hostname: 'b', default_pools: [z.pools[0]] }],
      ['GET', `${ZONES}/${z.id}/load-balancers/${lb.body.id}`],
      ['PATCH', `${ZONES}/${z.id}/load-balancers/${lb.body.id}`, { ttl: 60 }],
      ['DELETE', `${ZONES}/${z.id}/load-balancers/${lb.body.id}`],
    ];
    for (const [method, path, body] of routes) {
      const res = await t.request(method, path, { token: bob, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toEqual({ detail: 'Zone not found' });
    }
  });

  it('limits a zone to 50 load balancers (403)', async () => {
    const z = await zone(1);
    for (let i = 0; i < 50; i++) {
      expect((await create(z.id, { hostname: `h${i}`, default_pools: [z.pools[0]] })).status).toBe(201);
    }
    const res = await create(z.id, { hostname: 'h50', default_pools: [z.pools[0]] });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: 'Load balancer limit reached (50)' });
    const shortcut = await t.request('POST', `${ZONES}/${z.id}/lb-pools`, {
      token: alice,
      body: { name: 'more', hostname: 'h51' },
    });
    expect(shortcut.status).toBe(403);
    expect(shortcut.body).toEqual({ detail: 'Load balancer limit reached (50)' });
  });

  it('limits a load balancer to 200 steering entries (403), counting every map', async () => {
    const z = await zone(2);
    const [a, b] = z.pools as [number, number];
    const countries = [...COUNTRIES.keys()];
    expect(countries.length).toBeGreaterThan(200);
    const map = (n: number, ids: number[]) => Object.fromEntries(countries.slice(0, n).map((c) => [c, ids]));
    const full = await create(z.id, { hostname: 'full', default_pools: [a], country_pools: map(200, [a]) });
    expect(full.status).toBe(201);
    const over = await create(z.id, { hostname: 'over', default_pools: [a], country_pools: map(201, [a]) });
    expect(over.status).toBe(403);
    expect(over.body).toEqual({ detail: 'Steering entry limit reached (200)' });
    const mixed = await create(z.id, {
      hostname: 'mixed',
      default_pools: [a],
      country_pools: map(100, [a, b]),
      region_pools: { WEU: [a] },
      location_pools: { FRA: [b] },
    });
    expect(mixed.status).toBe(403);
    // PATCH counts the maps it keeps too.
    const patch = await update(z.id, full.body.id, { region_pools: { WEU: [b] } });
    expect(patch.status).toBe(403);
    expect(patch.body).toEqual({ detail: 'Steering entry limit reached (200)' });
  });

  it('goes with its zone: deleting the zone removes pools, members and load balancers', async () => {
    const z = await zone(2);
    const [a, b] = z.pools as [number, number];
    await t.request('POST', `${ZONES}/${z.id}/pools/${a}/members`, {
      token: alice,
      body: { address: '1.1.1.1' },
    });
    await create(z.id, {
      hostname: 'x',
      default_pools: [a],
      fallback_pool_id: b,
      region_pools: { WEU: [b] },
    });
    expect((await t.request('DELETE', `${ZONES}/${z.id}`, { token: alice })).status).toBe(204);
    const gone = await t.request('GET', `${ZONES}/${z.id}/load-balancers`, { token: alice });
    expect(gone.body).toEqual({ detail: 'Zone not found' });
  });

  it('moves the zone serial on every load balancer change', async () => {
    const z = await zone(1);
    const serialOf = async () => (await t.request('GET', `${ZONES}/${z.id}`, { token: alice })).body.serial;
    let serial = await serialOf();
    const lb = await create(z.id, { hostname: 's', default_pools: [z.pools[0]] });
    expect(await serialOf()).toBeGreaterThan(serial);
    serial = await serialOf();
    await update(z.id, lb.body.id, { ttl: 60 });
    expect(await serialOf()).toBeGreaterThan(serial);
    serial = await serialOf();
    await t.request('DELETE', `${ZONES}/${z.id}/load-balancers/${lb.body.id}`, { token: alice });
    expect(await serialOf()).toBeGreaterThan(serial);
  });

  it('lints a load balancer and the zone over the API; the update answer carries the findings', async () => {
    const z = await zone(2);
    const lb = (await create(z.id, { hostname: 'lint', default_pools: [z.pools[0]] })).body;
    const changed = await update(z.id, lb.id, {
      ttl: 10,
      session_affinity: 'client_ip',
      steering_policy: 'geo',
      location_pools: { SYD: [z.pools[0]] },
    });
    expect(changed.status).toBe(200);
    const codes = (changed.body.warnings as { code: string }[]).map((w) => w.code).sort();
    expect(codes).toEqual(['no_enabled_members', 'short_ttl_with_affinity', 'unknown_pop']);
    const lint = await t.request('GET', `${ZONES}/${z.id}/load-balancers/${lb.id}/lint`, { token: alice });
    expect(lint.status).toBe(200);
    expect(lint.body).toEqual(changed.body.warnings);
    const all = await t.request('GET', `${ZONES}/${z.id}/lint`, { token: alice });
    expect(all.body.map((f: { path: string }) => f.path)).toEqual([
      ...lint.body.map((f: { path: string }) => `load_balancers.${lb.id}.${f.path}`),
      `pools.${z.pools[1]}`,
    ]);
    // Another account's zone is not found.
    expect((await t.request('GET', `${ZONES}/${z.id}/lint`, { token: bob })).status).toBe(404);
    expect(
      (await t.request('GET', `${ZONES}/${z.id}/load-balancers/${lb.id}/lint`, { token: bob })).status,
    ).toBe(404);
  });
});
