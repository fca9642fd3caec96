import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';

const ZONES = '/api/v1/dns/zones';

describe('DNS load balancer preview route', () => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  let z: number;
  let eu: { id: number; members: { id: number }[] };
  let us: { id: number; members: { id: number }[] };
  let lb: number;
  const preview = (body: unknown, id = lb, token = alice) =>
    t.request('POST', `${ZONES}/${z}/load-balancers/${id}/preview`, { token, body });

  beforeAll(async () => {
    t = await startTestApp();
    alice = (await t.signUp()).token;
    bob = (await t.signUp()).token;
    z = (await t.request('POST', ZONES, { token: alice, body: { domain: 'preview.example' } })).body.id;
    const pool = async (name: string, address: string) =>
      (
        await t.request('POST', `${ZONES}/${z}/pools`, {
          token: alice,
          body: { name, members: [{ address }] },
        })
      ).body;
    eu = await pool('eu', '1.1.1.1');
    us = await pool('us', '8.8.8.8');
    const res = await t.request('POST', `${ZONES}/${z}/load-balancers`, {
      token: alice,
      body: {
        hostname: 'www',
        steering_policy: 'geo',
        default_pools: [us.id],
        location_pools: { FRA: [eu.id] },
        country_pools: { JP: [eu.id] },
        region_pools: { WEU: [eu.id] },
      },
    });
    expect(res.status).toBe(201);
    lb = res.body.id;
  });
  afterAll(async () => t?.close());

  it('answers from the PoP rule: cascade hit, reason, pool, answers, TTL, context and trace', async () => {
    const res = await preview({ pop: 'fra' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      cascade_hit: 'location',
      reason: 'ok',
      servfail: false,
      pool: { id: eu.id, name: 'eu' },
      answers: [{ type: 'A', address: '1.1.1.1', member_id: eu.members[0]!.id }],
      ttl: 30,
      context: { source: 'pop', pop: 'FRA' },
    });
    expect(res.body.trace[0]).toMatchObject({ stage: 'location', key: 'FRA' });
  });

  it('takes no body, or a zero-byte JSON one, as every field left out', async () => {
    const url = `${ZONES}/${z}/load-balancers/${lb}/preview`;
    const none = await t.request('POST', url, { token: alice });
    const empty = await t.request('POST', url, { token: alice, rawBody: '' });
    for (const res of [none, empty]) {
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ reason: 'ok', pool: { id: expect.any(Number) } });
    }
    expect(empty.body.pool).toEqual(none.body.pool);
    const member = us.members[0]!.id;
    const now = await t.request('POST', `${ZONES}/${z}/pools/${us.id}/members/${member}/health-check`, {
      token: alice,
      rawBody: '',
    });
    expect(now.status, now.text).toBe(200);
    expect(now.body).toMatchObject({ member_id: member });
  });

  it('falls through country, region and default; overrides set the context source', async () => {
    expect((await preview({ pop: 'IAD', country: 'jp' })).body).toMatchObject({
      cascade_hit: 'country',
      context: { source: 'override', country: 'JP' },
    });
    expect((await preview({ pop: 'IAD', region: 'WEU' })).body).toMatchObject({ cascade_hit: 'region' });
    const def = await preview({ pop: 'IAD', client_ip: '203.0.113.9' });
    expect(def.body).toMatchObject({
      cascade_hit: 'default',
      pool: { id: us.id },
      context: { client_ip: '203.0.113.9' },
    });
    expect((await preview({})).status).toBe(200);
  });

  it('reports no members for a family the pools lack, and a disabled load balancer', async () => {
    const v6 = await preview({ pop: 'FRA', qtype: 'AAAA' });
    expect(v6.body).toMatchObject({ reason: 'no_members', answers: [], servfail: false });
    await t.request('PATCH', `${ZONES}/${z}/load-balancers/${lb}`, {
      token: alice,
      body: { enabled: false },
    });
    expect((await preview({ pop: 'FRA' })).body).toMatchObject({
      reason: 'load_balancer_disabled',
      pool: null,
    });
    await t.request('PATCH', `${ZONES}/${z}/load-balancers/${lb}`, { token: alice, body: { enabled: true } });
  });

  it("validates the request and hides what is not the caller's", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ qtype: 'MX' }, 'qtype'],
      [{ client_ip: 'nope' }, 'client_ip'],
      [{ ecs: '10.0.0.0/33' }, 'ecs'],
      [{ pop: 'XXX' }, 'pop'],
      [{ country: 'ZZ' }, 'country'],
      [{ region: 'MARS' }, 'region'],
      [{ other: 1 }, 'other'],
    ];
    for (const [body, field] of cases) {
      const res = await preview(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['body', field]);
    }
    expect((await preview({ ecs: '192.0.2.0/24' })).status).toBe(200);
    expect((await preview({}, 999999)).body).toEqual({ detail: 'Load balancer not found' });
    expect((await preview({}, lb, bob)).body).toEqual({ detail: 'Zone not found' });
  });

  it('answers exact traffic shares for a place: weights within the pool the cascade picks', async () => {
    const weighted = (
      await t.request('POST', `${ZONES}/${z}/pools`, {
        token: alice,
        body: {
          name: 'weighted',
          members: [{ address: '9.9.9.9' }, { address: '149.112.112.112', weight: 3 }],
        },
      })
    ).body;
    const res = await t.request('POST', `${ZONES}/${z}/load-balancers`, {
      token: alice,
      body: {
        hostname: 'shares',
        steering_policy: 'geo',
        default_pools: [us.id],
        country_pools: { BR: [weighted.id] },
      },
    });
    const share = (query: string, token = alice) =>
      t.request('GET', `${ZONES}/${z}/load-balancers/${res.body.id}/traffic-share${query}`, { token });
    const br = await share('?country=BR&pop=GRU');
    expect(br.status).toBe(200);
    expect(br.body).toEqual({
      members: [
        { member_id: weighted.members[1].id, pool_id: weighted.id, address: '149.112.112.112', share: 0.75 },
        { member_id: weighted.members[0].id, pool_id: weighted.id, address: '9.9.9.9', share: 0.25 },
      ],
      servfail_share: 0,
      nodata_share: 0,
      context: expect.objectContaining({ pop: 'GRU', country: 'BR' }),
    });
    const elsewhere = await share('?country=US&pop=IAD');
    expect(elsewhere.body.members).toEqual([expect.objectContaining({ address: '8.8.8.8', share: 1 })]);
    // AAAA: no IPv6 member anywhere.
    expect((await share('?country=BR&qtype=AAAA')).body).toMatchObject({ members: [], nodata_share: 1 });
    const bad = await share('?country=ZZ');
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['query', 'country']);
    expect((await share('', bob)).status).toBe(404);
  });
});
