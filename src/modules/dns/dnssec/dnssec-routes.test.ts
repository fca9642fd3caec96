import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
      ksk_key_tag: expect.any(Number),
      zsk_key_tag: expect.any(Number),
      ds_records: [expect.stringMatching(/^signed\.example\. 3600 IN DS \d+ 13 2 [0-9a-f]{64}$/)],
      zsk_rotated_at: null,
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
      ksk_key_tag: null,
      zsk_key_tag: null,
      ds_records: [],
      zsk_rotated_at: null,
    });
    await patch(z.id, { dnssec_enabled: true });
    // Within the grace period the parent may still hold the DS: the same keys come back.
    expect(await info(z.id)).toEqual(keys);
  });
});
