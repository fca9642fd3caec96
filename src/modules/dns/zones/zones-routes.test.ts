import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dateSerial } from '../shared/zone-serial.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';

const ZONES = '/api/v1/dns/zones';

describe('DNS zones routes', () => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  beforeAll(async () => {
    t = await startTestApp();
    alice = (await t.signUp()).token;
    bob = (await t.signUp()).token;
  });
  afterAll(async () => t?.close());

  const create = (token: string, domain: string) => t.request('POST', ZONES, { token, body: { domain } });

  it('creates a zone and answers all its fields, normalised, with a date-based serial', async () => {
    const res = await create(alice, 'Shape.Example.');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      service_id: null,
      user_id: expect.any(Number),
      org_id: null,
      domain: 'shape.example',
      status: expect.any(String),
      dnssec_enabled: false,
      serial: dateSerial(Date.now()),
      soa_email: 'hostmaster@shape.example',
      record_count: 0,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(String(res.body.serial)).toMatch(/^\d{8}00$/);
    expect(new Date(res.body.created_at).toISOString()).toBe(res.body.created_at);
    const got = await t.request('GET', `${ZONES}/${res.body.id}`, { token: alice });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  it('normalises IDN to A-labels and accepts .test and reverse zones', async () => {
    expect((await create(alice, 'bücher.example')).body.domain).toBe('xn--bcher-kva.example');
    expect((await create(alice, 'BÜCHER2.example.')).body.domain).toBe('xn--bcher2-3ya.example');
    expect((await create(alice, 'foo.test')).body.domain).toBe('foo.test');
    expect((await create(alice, '2.0.192.in-addr.arpa.')).body.domain).toBe('2.0.192.in-addr.arpa');
    expect((await create(alice, '8.b.d.0.1.0.0.2.ip6.arpa')).status).toBe(201);
  });

  it('validates the domain (422 naming body.domain)', async () => {
    const bad = [
      'localhost',
      'example.',
      '.',
      '',
      'a..example',
      '.example.com',
      `${'a'.repeat(64)}.example`,
      `${Array.from({ length: 5 }, () => 'a'.repeat(63)).join('.')}.example`,
      'bad!label.example',
      '-lead.example',
      'trail-.example',
      'sp ace.example',
    ];
    for (const domain of bad) {
      const res = await create(alice, domain);
      expect(res.status, domain).toBe(422);
      expect(res.body.detail[0].loc, domain).toEqual(['body', 'domain']);
    }
    const reasons: [string, string][] = [
      ['localhost', 'Domain must have at least two labels (e.g. example.com)'],
      ['a..example', 'Domain must not contain empty labels'],
      [`${'a'.repeat(64)}.example`, 'Each label must be at most 63 characters'],
      ['bad!label.example', 'Label "bad!label" may only hold letters, digits and inner hyphens'],
    ];
    for (const [domain, msg] of reasons) expect((await create(alice, domain)).body.detail[0].msg).toBe(msg);
    // Boundaries that are fine: a 63-octet label and 253 octets in all.
    expect((await create(alice, `${'a'.repeat(63)}.example`)).status).toBe(201);
    const long = `${Array.from({ length: 3 }, () => 'b'.repeat(63)).join('.')}.${'c'.repeat(58)}.ex`;
    expect(long.length).toBe(253);
    expect((await create(alice, long)).status).toBe(201);
    expect((await create(alice, `x${long}`)).status).toBe(422);
    expect((await t.request('POST', ZONES, { token: alice, body: {} })).body.detail[0]).toMatchObject({
      type: 'missing',
      loc: ['body', 'domain'],
    });
    expect((await t.request('POST', ZONES, { token: alice, body: { domain: 5 } })).status).toBe(422);
  });

  it('answers 409 "Zone already exists" whoever holds the zone, whatever the spelling', async () => {
    expect((await create(alice, 'taken.example')).status).toBe(201);
    for (const [token, domain] of [
      [alice, 'taken.example'],
      [alice, 'TAKEN.example.'],
      [bob, 'taken.example'],
    ] as const) {
      const res = await create(token, domain);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ detail: 'Zone already exists' });
    }
    // A parent or child of another account's zone is refused too (zone-tree.test.ts).
    expect(await create(bob, 'sub.taken.example')).toMatchObject({
      status: 409,
      body: { detail: 'Zone is inside a zone held by another account' },
    });
    // The same account may hold a child zone.
    expect((await create(alice, 'sub.taken.example')).status).toBe(201);
  });

  it('needs a token', async () => {
    expect((await t.request('GET', ZONES)).status).toBe(401);
    expect((await t.request('POST', ZONES, { body: { domain: 'x.example' } })).status).toBe(401);
  });

  it('lists zones by domain with page/per_page 25/100, bare array, only the caller’s', async () => {
    const { token } = await t.signUp();
    const names = Array.from({ length: 27 }, (_, i) => `z${String(i).padStart(2, '0')}.paging.example`);
    for (const d of [...names].reverse()) expect((await create(token, d)).status).toBe(201);
    const first = await t.request('GET', ZONES, { token });
    expect(first.status).toBe(200);
    expect(Array.isArray(first.body)).toBe(true);
    expect(first.body.map((z: { domain: string }) => z.domain)).toEqual(names.slice(0, 25));
    const second = await t.request('GET', `${ZONES}?page=2`, { token });
    expect(second.body.map((z: { domain: string }) => z.domain)).toEqual(names.slice(25));
    const small = await t.request('GET', `${ZONES}?page=3&per_page=5`, { token });
    expect(small.body.map((z: { domain: string }) => z.domain)).toEqual(names.slice(10, 15));
    expect((await t.request('GET', `${ZONES}?per_page=100`, { token })).body).toHaveLength(27);
    expect((await t.request('GET', `${ZONES}?page=99`, { token })).body).toEqual([]);
    for (const q of ['per_page=0', 'per_page=101', 'page=0', 'per_page=abc']) {
      const res = await t.request('GET', `${ZONES}?${q}`, { token });
      expect(res.status, q).toBe(422);
      expect(res.body.detail[0].loc[0]).toBe('query');
    }
    const bobs = await t.request('GET', ZONES, { token: bob });
    expect(bobs.body.some((z: { domain: string }) => z.domain.endsWith('paging.example'))).toBe(false);
  });

  it('updates soa_email (string, null → hostmaster@domain), moving the serial only on a change', async () => {
    const zone = (await create(alice, 'soa.example')).body;
    const patch = (body: unknown) => t.request('PATCH', `${ZONES}/${zone.id}`, { token: alice, body });
    const set = await patch({ soa_email: 'DNS-Admin@Soa.Example' });
    expect(set.status).toBe(200);
    expect(set.body.soa_email).toBe('dns-admin@soa.example');
    expect(set.body.serial).toBeGreaterThan(zone.serial);
    const same = await patch({ soa_email: 'dns-admin@soa.example' });
    expect(same.body.serial).toBe(set.body.serial);
    const empty = await patch({});
    expect(empty.status).toBe(200);
    expect(empty.body.serial).toBe(set.body.serial);
    const reset = await patch({ soa_email: null });
    expect(reset.status).toBe(200);
    expect(reset.body.soa_email).toBe('hostmaster@soa.example');
    expect(reset.body.serial).toBeGreaterThan(set.body.serial);
    for (const soa_email of ['not-an-email', 'a@b', '@soa.example', 'x y@soa.example', 7]) {
      const res = await patch({ soa_email });
      expect(res.status, String(soa_email)).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['body', 'soa_email']);
      if (typeof soa_email === 'string')
        expect(res.body.detail[0].msg).toBe('Value is not a valid email address');
    }
    // Turning DNSSEC off when it is off changes nothing (DNSSEC itself: dnssec-routes.test.ts).
    expect((await patch({ dnssec_enabled: false })).status).toBe(200);
    expect((await patch({ domain: 'other.example' })).status).toBe(422);
    const after = (await t.request('GET', `${ZONES}/${zone.id}`, { token: alice })).body;
    expect(after).toMatchObject({ dnssec_enabled: false, serial: reset.body.serial });
  });

  it('answers the DNSSEC info shape', async () => {
    const zone = (await create(alice, 'dnssec.example')).body;
    const res = await t.request('GET', `${ZONES}/${zone.id}/dnssec`, { token: alice });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      enabled: false,
      algorithm: null,
      denial: null,
      ksk_key_tag: null,
      zsk_key_tag: null,
      ds_records: [],
      zsk_rotated_at: null,
      keys: [],
      rollover: null,
    });
  });

  it('deletes a zone (204), after which it is gone and the domain free again', async () => {
    const zone = (await create(alice, 'gone.example')).body;
    await t.request('POST', `${ZONES}/${zone.id}/records`, {
      token: alice,
      body: { name: 'www', type: 'A', content: '192.0.2.1' },
    });
    const del = await t.request('DELETE', `${ZONES}/${zone.id}`, { token: alice });
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    for (const [method, path] of [
      ['GET', `${ZONES}/${zone.id}`],
      ['DELETE', `${ZONES}/${zone.id}`],
      ['GET', `${ZONES}/${zone.id}/records`],
    ] as const) {
      const res = await t.request(method, path, { token: alice });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Zone not found' });
    }
    expect((await create(bob, 'gone.example')).status).toBe(201);
  });

  it('answers 404 "Zone not found" for an unknown id and 422 for a malformed one', async () => {
    expect((await t.request('GET', `${ZONES}/999999`, { token: alice })).body).toEqual({
      detail: 'Zone not found',
    });
    const res = await t.request('GET', `${ZONES}/abc`, { token: alice });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['path', 'zone_id']);
  });

  it('hides one account’s zone from another on every route under it', async () => {
    const zone = (await create(alice, 'private.example')).body;
    const rec = (
      await t.request('POST', `${ZONES}/${zone.id}/records`, {
        token: alice,
        body: { name: 'www', type: 'A', content: '192.0.2.1' },
      })
    ).body;
    const z = `${ZONES}/${zone.id}`;
    const record = { name: 'x', type: 'A', content: '192.0.2.9' };
    const routes: [string, string, unknown?][] = [
      ['GET', z],
      ['PATCH', z, { soa_email: 'bob@evil.example' }],
      ['PATCH', z, { soa_email: null }],
      ['DELETE', z],
      ['GET', `${z}/dnssec`],
      ['GET', `${z}/export`],
      ['POST', `${z}/import`, { zone_file: 'x 300 IN A 192.0.2.9\n' }],
      ['GET', `${z}/stats`],
      ['GET', `${z}/records`],
      ['POST', `${z}/records`, record],
      ['GET', `${z}/records/${rec.id}`],
      ['PUT', `${z}/records/${rec.id}`, record],
      ['DELETE', `${z}/records/${rec.id}`],
    ];
    for (const [method, path, body] of routes) {
      const res = await t.request(method, path, { token: bob, ...(body !== undefined ? { body } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body, `${method} ${path}`).toEqual({ detail: 'Zone not found' });
    }
    const after = await t.request('GET', z, { token: alice });
    expect(after.body).toEqual({
      ...zone,
      record_count: 1,
      serial: after.body.serial,
      updated_at: after.body.updated_at,
    });
    expect(after.body.serial).toBe(zone.serial + 1);
    expect((await t.request('GET', `${z}/records`, { token: alice })).body).toEqual([rec]);
  });
});
