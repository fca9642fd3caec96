import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../testing/eventually.ts';
import { ManualClock } from '../../../testing/manual-clock.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';

const ZONES = '/api/v1/dns/zones';

describe('DNSSEC on and off over the API', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp();
    token = (await t.signUp()).token;
  });
  afterAll(async () => t?.close());

  const zone = async (domain: string) => (await t.request('POST', ZONES, { token, body: { domain } })).body;
  const patch = (id: number, body: unknown) => t.request('PATCH', `${ZONES}/${id}`, { token, body });
  const info = async (id: number) => (await t.request('GET', `${ZONES}/${id}/dnssec`, { token })).body;

  it('enables ECDSAP256SHA256 by default: keys, DS digest type 2, serial moves, idempotent', async () => {
    const z = await zone('signed.example');
    const on = await patch(z.id, { dnssec_enabled: true });
    expect(on.status).toBe(200);
    expect(on.body.dnssec_enabled).toBe(true);
    expect(on.body.serial).toBeGreaterThan(z.serial);
    const d = await info(z.id);
    expect(d).toEqual({
      enabled: true,
      algorithm: 'ECDSAP256SHA256',
      denial: 'nsec3',
      ksk_key_tag: expect.any(Number),
      zsk_key_tag: expect.any(Number),
      ds_records: [expect.stringMatching(/^signed\.example\. 3600 IN DS \d+ 13 2 [0-9a-f]{64}$/)],
      zsk_rotated_at: null,
      keys: [
        { key_tag: d.ksk_key_tag, role: 'ksk', state: 'active', created_at: expect.any(String) },
        { key_tag: d.zsk_key_tag, role: 'zsk', state: 'active', created_at: expect.any(String) },
      ],
      rollover: null,
    });
    expect(d.ds_records[0]).toContain(` DS ${d.ksk_key_tag} `);
    const again = await patch(z.id, { dnssec_enabled: true });
    expect(again.body.serial).toBe(on.body.serial);
    expect(await info(z.id)).toEqual(d);
    // Private keys never appear in answers.
    expect(JSON.stringify(on.body) + JSON.stringify(d)).not.toMatch(/private|BEGIN/i);
  });

  it('selects Ed25519 with dnssec_algorithm, and validates the field', async () => {
    const z = await zone('ed.example');
    for (const bad of ['RSASHA256', 8, 'x']) {
      const res = await patch(z.id, { dnssec_enabled: true, dnssec_algorithm: bad });
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['body', 'dnssec_algorithm']);
    }
    expect((await patch(z.id, { dnssec_algorithm: 'ED25519' })).status).toBe(422);
    expect((await patch(z.id, { dnssec_enabled: true, dnssec_algorithm: 'ED25519' })).status).toBe(200);
    const d = await info(z.id);
    expect(d.algorithm).toBe('ED25519');
    expect(d.ds_records[0]).toMatch(/ DS \d+ 15 2 [0-9a-f]{64}$/);
    const change = await patch(z.id, { dnssec_enabled: true, dnssec_algorithm: 'ECDSAP256SHA256' });
    expect(change.status).toBe(422);
  });

  it('sets the denial with dnssec_denial: nsec3 by default, online on request, changeable while signed', async () => {
    const z = await zone('denial.example');
    const bad = await patch(z.id, { dnssec_denial: 'online' });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'dnssec_denial']);
    expect((await patch(z.id, { dnssec_enabled: true, dnssec_denial: 'nsec' })).status).toBe(422);
    const on = await patch(z.id, { dnssec_enabled: true, dnssec_denial: 'online' });
    expect(on.status).toBe(200);
    expect((await info(z.id)).denial).toBe('online');
    const switched = await patch(z.id, { dnssec_denial: 'nsec3' });
    expect(switched.status).toBe(200);
    expect(switched.body.serial).toBeGreaterThan(on.body.serial);
    expect((await info(z.id)).denial).toBe('nsec3');
    // The same again changes nothing: the serial stays.
    expect((await patch(z.id, { dnssec_denial: 'nsec3' })).body.serial).toBe(switched.body.serial);
    expect((await patch(z.id, { dnssec_enabled: false, dnssec_denial: 'nsec3' })).status).toBe(422);
  });

  it('turns off (serial moves, info back to the disabled shape) and on again with the same keys', async () => {
    const z = await zone('toggle.example');
    const on = (await patch(z.id, { dnssec_enabled: true })).body;
    const keys = await info(z.id);
    const off = await patch(z.id, { dnssec_enabled: false });
    expect(off.body.dnssec_enabled).toBe(false);
    expect(off.body.serial).toBeGreaterThan(on.serial);
    expect(await info(z.id)).toEqual({
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
    await patch(z.id, { dnssec_enabled: true });
    // Within the grace period the parent may still hold the DS: the same keys come back.
    expect(await info(z.id)).toEqual(keys);
  });

  it('starts a KSK rollover: a second KSK published, both DS listed and in CDS, audited; 409 twice or unsigned', async () => {
    const rollover = (id: number, body: unknown = { key: 'ksk' }) =>
      t.request('POST', `${ZONES}/${id}/dnssec/rollover`, { token, body });
    const unsigned = await zone('unsigned-roll.example');
    const refused = await rollover(unsigned.id);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe('DNSSEC is not enabled for this zone');
    const z = await zone('roll.example');
    const on = (await patch(z.id, { dnssec_enabled: true })).body;
    expect((await rollover(z.id, { key: 'zsk' })).status).toBe(422);
    expect((await rollover(z.id, {})).status).toBe(422);
    const before = await info(z.id);
    const res = await rollover(z.id);
    expect(res.status).toBe(200);
    const d = res.body;
    expect(d.rollover).toEqual({
      key: 'ksk',
      state: 'waiting_for_parent_ds',
      started_at: expect.any(String),
      last_parent_check_at: null,
    });
    const ksks = d.keys.filter((k: { role: string }) => k.role === 'ksk');
    expect(ksks.map((k: { state: string }) => k.state)).toEqual(['active', 'published']);
    expect(d.ksk_key_tag).toBe(before.ksk_key_tag);
    expect(d.ds_records).toHaveLength(2);
    expect(d.ds_records[0]).toBe(before.ds_records[0]);
    expect(d.ds_records[1]).toContain(` DS ${ksks[1].key_tag} 13 2 `);
    expect((await t.request('GET', `${ZONES}/${z.id}`, { token })).body.serial).toBeGreaterThan(on.serial);
    const again = await rollover(z.id);
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe('A KSK rollover is already in progress');
  });
});

describe('automatic KSK rollover (DNSSEC_KSK_ROLL_DAYS)', () => {
  let t: TestApp;
  const clock = new ManualClock(Date.now());
  beforeAll(async () => {
    t = await startTestApp({
      clock,
      // Nothing answers on this port: every parent check fails and counts as "not seen".
      env: {
        DNSSEC_KSK_ROLL_DAYS: '2',
        DNSSEC_KEY_CHECK_INTERVAL_S: '1',
        DNSSEC_PARENT_RESOLVER: '127.0.0.1:9',
      },
    });
  });
  afterAll(async () => t?.close());

  it('starts one once the active KSK has signed for that many days, then waits for the parent', async () => {
    const { token, email } = await t.signUp();
    const z = (await t.request('POST', ZONES, { token, body: { domain: 'auto-roll.example' } })).body;
    await t.request('PATCH', `${ZONES}/${z.id}`, { token, body: { dnssec_enabled: true } });
    const info = async (bearer: string) =>
      (await t.request('GET', `${ZONES}/${z.id}/dnssec`, { token: bearer })).body;
    clock.advance(2 * 86_400_000 - 60_000);
    let fresh = await t.signIn(email);
    await new Promise((r) => setTimeout(r, 2_500));
    expect((await info(fresh)).rollover).toBeNull();
    clock.advance(60_000);
    fresh = await t.signIn(email);
    const started = await eventually(async () => {
      const d = await info(fresh);
      expect(d.rollover?.state).toBe('waiting_for_parent_ds');
      expect(d.rollover?.last_parent_check_at).not.toBeNull();
      return d;
    });
    expect(started.keys.filter((k: { role: string }) => k.role === 'ksk')).toHaveLength(2);
    expect(started.ds_records).toHaveLength(2);
  }, 30_000);
});
