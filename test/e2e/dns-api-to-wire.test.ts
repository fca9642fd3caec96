/**
 * From the control API to the wire: a change made over HTTP is answered by the running DNS
 * server over UDP and TCP within a second; a deleted zone is refused within a second.
 */
import dnsPacket from 'dns-packet';
import type { Packet } from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryTcp, queryUdp } from '../../src/testing/dns-client.ts';
import { startTestApp, type TestApp } from '../../src/testing/test-app.ts';

const ZONES = '/api/v1/dns/zones';
const DEADLINE_MS = 1000;
const POLL_MS = 20;

let nextId = 1;
function query(name: string, type: string): Buffer {
  return dnsPacket.encode({
    type: 'query',
    id: nextId++ & 0xffff || 1,
    flags: 0,
    questions: [{ type: type as 'A', class: 'IN', name }],
  });
}

type Transport = 'udp' | 'tcp';
/** The answer records we look at (no OPT pseudo-records in an answer section). */
type Rr = { type: string; name: string; ttl: number; data: unknown };
const answersOf = (p: Packet): Rr[] => (p.answers ?? []) as Rr[];

describe('DNS API to wire', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp();
    token = (await t.signUp()).token;
  });
  afterAll(async () => t?.close());

  async function ask(name: string, type: string, via: Transport = 'udp'): Promise<Packet> {
    const dns = t.node.dns!;
    const opts = { host: '127.0.0.1', timeoutMs: 300, retries: 0 };
    const res =
      via === 'udp'
        ? await queryUdp(query(name, type), { ...opts, port: dns.udpPort })
        : await queryTcp(query(name, type), { ...opts, port: dns.tcpPort });
    expect(res.decoded, `${via} ${name} ${type}: no decodable answer`).not.toBeNull();
    return res.decoded!;
  }

  /** Polls every POLL_MS until `ok` holds for the answer; fails when DEADLINE_MS passes first. */
  async function within(
    name: string,
    type: string,
    ok: (p: Packet) => boolean,
    via: Transport = 'udp',
  ): Promise<{ packet: Packet; ms: number }> {
    const started = performance.now();
    for (;;) {
      const packet = await ask(name, type, via);
      const ms = performance.now() - started;
      if (ok(packet)) return { packet, ms };
      if (ms > DEADLINE_MS) {
        throw new Error(
          `${via} ${name} ${type}: not as expected after ${Math.round(ms)} ms: ${JSON.stringify(packet)}`,
        );
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  const rcode = (p: Packet) => (p as Packet & { rcode?: string }).rcode;
  const addresses = (p: Packet) =>
    answersOf(p)
      .filter((a) => a.type === 'A' || a.type === 'AAAA')
      .map((a) => String(a.data));
  const soaSerial = (p: Packet) => {
    const soa = answersOf(p).find((a) => a.type === 'SOA');
    return soa ? (soa.data as { serial: number }).serial : null;
  };
  const zoneOf = async (id: number) => (await t.request('GET', `${ZONES}/${id}`, { token })).body;

  it('serves a new zone and its records over UDP and TCP within a second, serial matching', async () => {
    const zone = (await t.request('POST', ZONES, { token, body: { domain: 'wire.example' } })).body;
    const soa = await within('wire.example', 'SOA', (p) => rcode(p) === 'NOERROR' && soaSerial(p) !== null);
    expect(soaSerial(soa.packet)).toBe(zone.serial);
    expect(soa.packet.flags! & dnsPacket.AUTHORITATIVE_ANSWER).toBeTruthy();
    const ns = await ask('wire.example', 'NS');
    expect(
      answersOf(ns)
        .map((a) => a.data)
        .sort(),
    ).toEqual(['ns1.example.net', 'ns2.example.net']);

    const rec = await t.request('POST', `${ZONES}/${zone.id}/records`, {
      token,
      body: { name: 'www', type: 'A', content: '192.0.2.10', ttl: 120 },
    });
    expect(rec.status).toBe(201);
    const udp = await within('www.wire.example', 'A', (p) => addresses(p).includes('192.0.2.10'));
    expect(udp.ms).toBeLessThan(DEADLINE_MS);
    expect(answersOf(udp.packet)[0]).toMatchObject({
      name: 'www.wire.example',
      ttl: 120,
      data: '192.0.2.10',
    });
    const tcp = await within('www.wire.example', 'A', (p) => addresses(p).includes('192.0.2.10'), 'tcp');
    expect(tcp.ms).toBeLessThan(DEADLINE_MS);

    const serial = (await zoneOf(zone.id)).serial;
    expect(serial).toBeGreaterThan(zone.serial);
    const soa2 = await within('wire.example', 'SOA', (p) => soaSerial(p) === serial, 'tcp');
    expect(soa2.ms).toBeLessThan(DEADLINE_MS);
  });

  it('changes the answer when a record is updated, and drops it when deleted', async () => {
    const zone = (await t.request('POST', ZONES, { token, body: { domain: 'update.example' } })).body;
    const rec = (
      await t.request('POST', `${ZONES}/${zone.id}/records`, {
        token,
        body: { name: 'host', type: 'A', content: '198.51.100.1' },
      })
    ).body;
    await within('host.update.example', 'A', (p) => addresses(p).includes('198.51.100.1'));

    const put = await t.request('PUT', `${ZONES}/${zone.id}/records/${rec.id}`, {
      token,
      body: { name: 'host', type: 'A', content: '198.51.100.2', ttl: 60 },
    });
    expect(put.status).toBe(200);
    const changed = await within('host.update.example', 'A', (p) => addresses(p).includes('198.51.100.2'));
    expect(addresses(changed.packet)).toEqual(['198.51.100.2']);
    expect(answersOf(changed.packet)[0]!.ttl).toBe(60);
    await within('host.update.example', 'A', (p) => addresses(p).includes('198.51.100.2'), 'tcp');
    expect(soaSerial(await ask('update.example', 'SOA'))).toBe((await zoneOf(zone.id)).serial);

    // An import is served too, then the record's deletion gives NXDOMAIN.
    const imp = await t.request('POST', `${ZONES}/${zone.id}/import`, {
      token,
      body: { zone_file: 'mail 300 IN AAAA 2001:db8::25\n@ 300 IN MX 10 mail\n' },
    });
    expect(imp.body.imported).toBe(2);
    await within('mail.update.example', 'AAAA', (p) => addresses(p).includes('2001:db8::25'));

    expect((await t.request('DELETE', `${ZONES}/${zone.id}/records/${rec.id}`, { token })).status).toBe(204);
    await within('host.update.example', 'A', (p) => rcode(p) === 'NXDOMAIN');
    expect(soaSerial(await ask('update.example', 'SOA'))).toBe((await zoneOf(zone.id)).serial);

    // The SOA email change shows in the served SOA.
    await t.request('PATCH', `${ZONES}/${zone.id}`, { token, body: { soa_email: 'ops@update.example' } });
    const rname = await within('update.example', 'SOA', (p) =>
      answersOf(p).some(
        (a) => a.type === 'SOA' && (a.data as { rname: string }).rname === 'ops.update.example',
      ),
    );
    expect(soaSerial(rname.packet)).toBe((await zoneOf(zone.id)).serial);

    // Every change above arrived as a bus event stamped by the API; the DNS role measured its lag.
    const metrics = (await t.request('GET', '/metrics')).text;
    const count = Number(/^dns_bus_lag_seconds_count (\d+)$/m.exec(metrics)?.[1]);
    expect(count).toBeGreaterThanOrEqual(5);
    // Record changes (create, update, delete) reload their names only; the import and the SOA
    // email (zone settings) reload the zone whole.
    const reloads = (scope: string): number =>
      Number(new RegExp(`^dns_zone_reloads_total\\{scope="${scope}"\\} (\\d+)$`, 'm').exec(metrics)?.[1]);
    expect(reloads('names')).toBeGreaterThanOrEqual(3);
    expect(reloads('zone')).toBeGreaterThanOrEqual(2);
  });

  it('refuses a deleted zone within a second over UDP and TCP', async () => {
    const zone = (await t.request('POST', ZONES, { token, body: { domain: 'bye.example' } })).body;
    await t.request('POST', `${ZONES}/${zone.id}/records`, {
      token,
      body: { name: 'www', type: 'A', content: '203.0.113.5' },
    });
    await within('www.bye.example', 'A', (p) => addresses(p).includes('203.0.113.5'));
    expect((await t.request('DELETE', `${ZONES}/${zone.id}`, { token })).status).toBe(204);
    const udp = await within('www.bye.example', 'A', (p) => rcode(p) === 'REFUSED');
    expect(udp.ms).toBeLessThan(DEADLINE_MS);
    expect(answersOf(udp.packet)).toEqual([]);
    const tcp = await within('bye.example', 'SOA', (p) => rcode(p) === 'REFUSED', 'tcp');
    expect(tcp.ms).toBeLessThan(DEADLINE_MS);
  });

  it('refuses names of no zone at all', async () => {
    expect(rcode(await ask('nowhere.invalid', 'A'))).toBe('REFUSED');
  });
});
