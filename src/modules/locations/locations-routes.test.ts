import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

describe('locations and load-balancer regions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('lists active locations without a token', async () => {
    const res = await t.request('GET', '/api/v1/locations');
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThanOrEqual(30);
    expect(res.body.every((l: { is_active: boolean }) => l.is_active)).toBe(true);
    expect(res.body[0]).toEqual({
      id: expect.any(Number),
      code: expect.any(String),
      name: expect.any(String),
      country_code: expect.stringMatching(/^[A-Z]{2}$/),
      timezone: expect.any(String),
      latitude: expect.any(Number),
      longitude: expect.any(Number),
      lb_region_code: expect.any(String),
      sort_order: expect.any(Number),
      is_active: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const all = await t.request('GET', '/api/v1/locations?active_only=false');
    expect(all.body.length).toBeGreaterThan(res.body.length);
    const regions = new Set(all.body.map((l: { lb_region_code: string }) => l.lb_region_code));
    expect(regions.size).toBe(11);
  });

  it('lists the 11 regions with every country in exactly one', async () => {
    expect((await t.request('GET', '/api/v1/dns/lb-regions')).status).toBe(401);
    const { token } = await t.signUp();
    const res = await t.request('GET', '/api/v1/dns/lb-regions', { token });
    expect(res.status).toBe(200);
    expect(res.body.map((r: { code: string }) => r.code)).toEqual([
      'WNAM',
      'ENAM',
      'WEU',
      'EEU',
      'SEAS',
      'NEAS',
      'SAS',
      'ME',
      'AF',
      'OC',
      'SAM',
    ]);
    const all = res.body.flatMap((r: { countries: string[] }) => r.countries);
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBe(249);
    const regionOf = (cc: string) =>
      res.body.find((r: { countries: string[] }) => r.countries.includes(cc)).code;
    expect(regionOf('US')).toBe('ENAM');
    expect(regionOf('CA')).toBe('WNAM');
  });
});
