import dnsPacket from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryUdp } from '../../../testing/dns-client.ts';
import { ManualClock } from '../../../testing/manual-clock.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';

const ZONES = '/api/v1/dns/zones';
const HOUR = 3_600_000;

describe('DNS zone stats route', () => {
  // 2026-03-04T05:06:07Z: the window is the current UTC hour and the 23 before it.
  const clock = new ManualClock(Date.UTC(2026, 2, 4, 5, 6, 7));
  let t: TestApp;
  let alice: string;
  let aliceEmail: string;
  let bob: string;
  beforeAll(async () => {
    t = await startTestApp({ clock });
    ({ token: alice, email: aliceEmail } = await t.signUp());
    bob = (await t.signUp()).token;
  });
  afterAll(async () => t?.close());

  it('answers zeros for the last 24 hours until queries are counted', async () => {
    const zone = (await t.request('POST', ZONES, { token: alice, body: { domain: 'stats.example' } })).body;
    const res = await t.request('GET', `${ZONES}/${zone.id}/stats`, { token: alice });
    expect(res.status).toBe(200);
    const currentHour = Date.UTC(2026, 2, 4, 5);
    expect(res.body).toEqual({
      zone_id: zone.id,
      period_hours: 24,
      total: 0,
      by_type: {},
      by_rcode: {},
      hourly: Array.from({ length: 24 }, (_, i) => ({
        hour: new Date(currentHour - (23 - i) * HOUR).toISOString(),
        total: 0,
      })),
    });
    // An hour later the window has moved on (sign in again: access tokens last 15 minutes).
    clock.advance(HOUR);
    const login = await t.request('POST', '/api/v1/auth/login', {
      body: { email: aliceEmail, password: 'correct horse battery' },
    });
    alice = login.body.access_token;
    const later = await t.request('GET', `${ZONES}/${zone.id}/stats`, { token: alice });
    expect(later.body.hourly.at(-1)).toEqual({ hour: '2026-03-04T06:00:00.000Z', total: 0 });
    expect(later.body.hourly[0]).toEqual({ hour: '2026-03-03T07:00:00.000Z', total: 0 });
  });

  it('answers 404 "Zone not found" for another account’s zone, an unknown one, and 401 without a token', async () => {
    bob = (await t.signUp()).token;
    const zone = (await t.request('POST', ZONES, { token: alice, body: { domain: 'stats2.example' } })).body;
    for (const [token, id] of [
      [bob, zone.id],
      [alice, 999999],
    ] as const) {
      const res = await t.request('GET', `${ZONES}/${id}/stats`, { token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Zone not found' });
    }
    expect((await t.request('GET', `${ZONES}/${zone.id}/stats`)).status).toBe(401);
    expect((await t.request('GET', `${ZONES}/x/stats`, { token: alice })).status).toBe(422);
  });
});

describe('DNS zone stats: counted queries', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('reports the queries the DNS server counted once its counters are flushed', async () => {
    const { token } = await t.signUp();
    const zone = (await t.request('POST', ZONES, { token, body: { domain: 'counted.example' } })).body;
    await t.request('POST', `${ZONES}/${zone.id}/records`, {
      token,
      body: { name: 'www', type: 'A', content: '192.0.2.1' },
    });
    // Wait (without querying, which would count) until the DNS role holds the zone's latest serial.
    const serial = (await t.request('GET', `${ZONES}/${zone.id}`, { token })).body.serial;
    const loaded = Date.now() + 2000;
    while (t.node.dns!.store.get(zone.id)?.serial !== serial && Date.now() < loaded) {
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(t.node.dns!.store.get(zone.id)?.serial).toBe(serial);
    const ask = async (name: string, type: 'A' | 'AAAA' | 'MX', id: number) => {
      const q = dnsPacket.encode({ type: 'query', id, flags: 0, questions: [{ type, class: 'IN', name }] });
      const res = await queryUdp(q, { host: '127.0.0.1', port: t.node.dns!.udpPort });
      expect(res.decoded).not.toBeNull();
      return res.decoded!;
    };
    expect((await ask('www.counted.example', 'A', 1)).answers).toHaveLength(1);
    await ask('www.counted.example', 'A', 2);
    await ask('www.counted.example', 'AAAA', 3);
    expect((await ask('nope.counted.example', 'MX', 4)).flags! & 0xf).toBe(3); // NXDOMAIN;
    await ask('other.invalid', 'A', 5); // no zone: not counted anywhere

    // Counters reach the stats route when flushed (every 60 s, and when the DNS role stops).
    await t.node.dns!.stop();
    // The sink hands counters to the bus without waiting (Redis is a round trip away): poll briefly.
    const deadline = Date.now() + 2000;
    let res = await t.request('GET', `${ZONES}/${zone.id}/stats`, { token });
    while (res.body.total < 4 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      res = await t.request('GET', `${ZONES}/${zone.id}/stats`, { token });
    }
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      zone_id: zone.id,
      total: 4,
      by_type: { A: 2, AAAA: 1, MX: 1 },
      by_rcode: { NOERROR: 3, NXDOMAIN: 1 },
    });
    expect(res.body.hourly.reduce((n: number, h: { total: number }) => n + h.total, 0)).toBe(4);
  });
});
