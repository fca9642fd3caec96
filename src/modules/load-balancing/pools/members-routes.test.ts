import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';

const ZONES = '/api/v1/dns/zones';
const FAMILIES = ['pools', 'lb-pools'] as const;
const PRIVATE = 'health-check target targets a private or reserved network';

describe('DNS origin members routes', () => {
  let t: TestApp;
  let alice: string;
  let domains = 0;
  beforeAll(async () => {
    t = await startTestApp();
    alice = (await t.signUp()).token;
  });
  afterAll(async () => t?.close());

  async function pool(): Promise<{ zone: number; pool: number }> {
    const z = await t.request('POST', ZONES, {
      token: alice,
      body: { domain: `members${++domains}.example` },
    });
    const p = await t.request('POST', `${ZONES}/${z.body.id}/pools`, { token: alice, body: { name: 'p' } });
    expect(p.status).toBe(201);
    return { zone: z.body.id as number, pool: p.body.id as number };
  }
  const add = (at: { zone: number; pool: number }, body: unknown, family = 'pools') =>
    t.request('POST', `${ZONES}/${at.zone}/${family}/${at.pool}/members`, { token: alice, body });
  const patch = (at: { zone: number; pool: number }, id: number, body: unknown, family = 'pools') =>
    t.request('PATCH', `${ZONES}/${at.zone}/${family}/${at.pool}/members/${id}`, { token: alice, body });

  it('creates a member with the defaults (health_status healthy when nothing is checked)', async () => {
    const at = await pool();
    for (const family of FAMILIES) {
      const res = await add(at, { address: '8.8.8.8' }, family);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        pool_id: at.pool,
        address: '8.8.8.8',
        address_type: 'A',
        weight: 1,
        priority: 0,
        enabled: true,
        health_mode: 'none',
        health_path: '/',
        health_port: null,
        health_interval_s: 30,
        health_timeout_s: 5,
        health_status: 'healthy',
        last_check_at: null,
        last_error: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
    }
    const got = await t.request('GET', `${ZONES}/${at.zone}/pools/${at.pool}`, { token: alice });
    expect(got.body.total_members).toBe(2);
    expect(got.body.healthy_members).toBe(2);
  });

  it('takes every field; a checked member starts unknown; AAAA addresses are stored canonical', async () => {
    const at = await pool();
    const res = await add(at, {
      address: '2606:4700:4700:0000:0000:0000:0000:1111',
      address_type: 'AAAA',
      weight: 100,
      priority: 7,
      enabled: false,
      health_mode: 'https',
      health_path: '/healthz',
      health_port: 8443,
      health_interval_s: 3600,
      health_timeout_s: 30,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      address: '2606:4700:4700::1111',
      address_type: 'AAAA',
      weight: 100,
      priority: 7,
      enabled: false,
      health_mode: 'https',
      health_path: '/healthz',
      health_port: 8443,
      health_interval_s: 3600,
      health_timeout_s: 30,
      health_status: 'unknown',
    });
    const got = await t.request('GET', `${ZONES}/${at.zone}/pools/${at.pool}`, { token: alice });
    expect(got.body).toMatchObject({ total_members: 1, healthy_members: 0 });
  });

  it('answers 422 naming the field for values out of range', async () => {
    const at = await pool();
    const cases: [Record<string, unknown>, string][] = [
      [{ address: '8.8.8.8', weight: 0 }, 'weight'],
      [{ address: '8.8.8.8', weight: 101 }, 'weight'],
      [{ address: '8.8.8.8', priority: -1 }, 'priority'],
      [{ address: '8.8.8.8', address_type: 'CNAME' }, 'address_type'],
      [{ address: '8.8.8.8', health_mode: 'icmp' }, 'health_mode'],
      [{ address: '8.8.8.8', health_port: 0 }, 'health_port'],
      [{ address: '8.8.8.8', health_port: 65536 }, 'health_port'],
      [{ address: '8.8.8.8', health_interval_s: 9 }, 'health_interval_s'],
      [{ address: '8.8.8.8', health_interval_s: 3601 }, 'health_interval_s'],
      [{ address: '8.8.8.8', health_timeout_s: 0 }, 'health_timeout_s'],
      [{ address: '8.8.8.8', health_timeout_s: 31 }, 'health_timeout_s'],
      [{ address: '8.8.8.8', health_path: 'healthz' }, 'health_path'],
      [{ address: '8.8.8.8', health_status: 'healthy' }, 'health_status'],
      [{ weight: 1 }, 'address'],
    ];
    for (const [body, field] of cases) {
      const res = await add(at, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.detail[0].loc, JSON.stringify(body)).toEqual(['body', field]);
    }
    expect((await add(at, { address: '8.8.8.8', health_port: 65535, priority: 0 })).status).toBe(201);
  });

  it('checks the address: an IP, of the right family, public', async () => {
    const at = await pool();
    const cases: [Record<string, unknown>, string][] = [
      [{ address: 'example.com' }, 'Invalid IP address: example.com'],
      [{ address: '300.1.1.1' }, 'Invalid IP address: 300.1.1.1'],
      [{ address: '2606:4700::1111' }, 'A members require an IPv4 address'],
      [{ address: '8.8.8.8', address_type: 'AAAA' }, 'AAAA members require an IPv6 address'],
      [{ address: '10.1.2.3' }, PRIVATE],
      [{ address: '127.0.0.1' }, PRIVATE],
      [{ address: '169.254.169.254' }, PRIVATE],
      [{ address: '192.0.2.10' }, PRIVATE],
      [{ address: '255.255.255.255' }, PRIVATE],
      [{ address: '::1', address_type: 'AAAA' }, PRIVATE],
      [{ address: 'fd00::1', address_type: 'AAAA' }, PRIVATE],
      [{ address: '::ffff:192.168.0.1', address_type: 'AAAA' }, PRIVATE],
      [{ address: '2001:db8::1', address_type: 'AAAA' }, PRIVATE],
    ];
    for (const [body, msg] of cases) {
      for (const mode of ['none', 'tcp']) {
        const res = await add(at, { ...body, health_mode: mode });
        expect(res.status, JSON.stringify(body)).toBe(422);
        expect(res.body.detail, JSON.stringify(body)).toEqual([
          { type: 'value_error', loc: ['body', 'address'], msg, input: body.address, ctx: {} },
        ]);
      }
    }
    const m = await add(at, { address: '1.1.1.1', health_mode: 'tcp' });
    for (const [body, msg] of cases.filter(([b]) => b.address_type === undefined)) {
      const res = await patch(at, m.body.id, { address: body.address });
      expect(res.status).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'address'], msg });
    }
  });

  it('updates a member; address_type cannot change; a new address restarts the health', async () => {
    const at = await pool();
    const m = await add(at, { address: '1.1.1.1', health_mode: 'http' });
    const res = await patch(
      at,
      m.body.id,
      { weight: 50, priority: 2, enabled: false, health_path: '/up' },
      'lb-pools',
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      address: '1.1.1.1',
      weight: 50,
      priority: 2,
      enabled: false,
      health_path: '/up',
      health_status: 'unknown',
    });
    const type = await patch(at, m.body.id, { address_type: 'AAAA' });
    expect(type.status).toBe(422);
    expect(type.body.detail[0]).toMatchObject({ loc: ['body', 'address_type'] });
    expect((await patch(at, m.body.id, { address_type: 'A', address: '1.0.0.1' })).body.address).toBe(
      '1.0.0.1',
    );
    expect((await patch(at, m.body.id, { health_mode: 'none' })).body.health_status).toBe('healthy');
    expect((await patch(at, m.body.id, { health_mode: 'tcp' })).body.health_status).toBe('unknown');
    expect((await patch(at, m.body.id, { weight: 0 })).body.detail[0].loc).toEqual(['body', 'weight']);
  });

  it('deletes members; 404s for members and pools not there', async () => {
    const at = await pool();
    const other = await pool();
    const m = await add(at, { address: '1.1.1.1' });
    const foreign = await add(other, { address: '1.1.1.1' });
    for (const family of FAMILIES) {
      const p = await patch(at, foreign.body.id, { weight: 2 }, family);
      expect(p.status).toBe(404);
      expect(p.body).toEqual({ detail: 'LB member not found' });
      const d = await t.request('DELETE', `${ZONES}/${at.zone}/${family}/${at.pool}/members/999999`, {
        token: alice,
      });
      expect(d.body).toEqual({ detail: 'LB member not found' });
      const missingPool = await t.request('POST', `${ZONES}/${at.zone}/${family}/${other.pool}/members`, {
        token: alice,
        body: { address: '1.1.1.1' },
      });
      expect(missingPool.status).toBe(404);
      expect(missingPool.body).toEqual({ detail: 'Origin pool not found' });
    }
    const del = await t.request('DELETE', `${ZONES}/${at.zone}/lb-pools/${at.pool}/members/${m.body.id}`, {
      token: alice,
    });
    expect(del.status).toBe(204);
    expect((await patch(at, m.body.id, { weight: 2 })).status).toBe(404);
  });

  it('limits a pool to 20 members (403)', async () => {
    const at = await pool();
    for (let i = 0; i < 20; i++) expect((await add(at, { address: `9.9.9.${i + 1}` })).status).toBe(201);
    for (const family of FAMILIES) {
      const res = await add(at, { address: '9.9.9.99' }, family);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: 'LB member limit reached (20)' });
    }
  });

  it('moves the zone serial on member changes', async () => {
    const at = await pool();
    const serialOf = async () =>
      (await t.request('GET', `${ZONES}/${at.zone}`, { token: alice })).body.serial;
    let serial = await serialOf();
    const m = await add(at, { address: '1.1.1.1' });
    expect(await serialOf()).toBeGreaterThan(serial);
    serial = await serialOf();
    await patch(at, m.body.id, { weight: 3 });
    expect(await serialOf()).toBeGreaterThan(serial);
    serial = await serialOf();
    await t.request('DELETE', `${ZONES}/${at.zone}/pools/${at.pool}/members/${m.body.id}`, { token: alice });
    expect(await serialOf()).toBeGreaterThan(serial);
  });
});

describe('DNS origin members with HEALTH_ALLOW_PRIVATE_TARGETS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { HEALTH_ALLOW_PRIVATE_TARGETS: 'true' } });
  });
  afterAll(async () => t?.close());

  it('admits private and loopback addresses, never reserved ones', async () => {
    const token = (await t.signUp()).token;
    const z = await t.request('POST', ZONES, { token, body: { domain: 'private-ok.example' } });
    const p = await t.request('POST', `${ZONES}/${z.body.id}/pools`, { token, body: { name: 'lan' } });
    const add = (body: unknown) =>
      t.request('POST', `${ZONES}/${z.body.id}/pools/${p.body.id}/members`, { token, body });
    expect((await add({ address: '10.0.0.5' })).status).toBe(201);
    expect((await add({ address: '127.0.0.1' })).status).toBe(201);
    expect((await add({ address: 'fd00::5', address_type: 'AAAA' })).status).toBe(201);
    const reserved = await add({ address: '192.0.2.1' });
    expect(reserved.status).toBe(422);
    expect(reserved.body.detail[0].msg).toBe(PRIVATE);
  });
});
