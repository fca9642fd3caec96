/**
 * Zone transfers out against a real Knot secondary: AXFR of a zone made through the
 * API, NOTIFY + IXFR after a change, the same answers as the primary, refusals without the key,
 * with a bad key or from outside allow_from; and the settings API (validation, ownership, the
 * secret never returned).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import dnsPacket from 'dns-packet';
import type { Packet } from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeOrNull, queryUdp } from '../../src/testing/dns-client.ts';
import { freePort } from '../../src/testing/free-port.ts';
import { isKnotAvailable, startKnot, type KnotServer } from '../../src/testing/knot-server.ts';
import { startTestApp, type TestApp } from '../../src/testing/test-app.ts';

const run = promisify(execFile);
const ZONES = '/api/v1/dns/zones';
const DOMAIN = 'example.test';
const KEY = 'xfr-key';
const SECRET = randomBytes(32).toString('base64');
/** Bound on waiting for the secondary to follow a change (NOTIFY delay + transfer). */
const FOLLOW_TIMEOUT_MS = 10_000;
const POLL_MS = 100;
const KDIG = '/usr/bin/kdig';

async function kdig(args: string[]): Promise<string> {
  // kdig reports a refused or unverified transfer on stderr and exits non-zero.
  const { stdout, stderr } = await run(KDIG, ['+tcp', '+time=3', '+retry=0', ...args]).catch(
    (e: { stdout?: string; stderr?: string }) => ({ stdout: e.stdout ?? '', stderr: e.stderr ?? '' }),
  );
  return `${stdout}\n${stderr}`;
}

let id = 1;
async function ask(port: number, name: string, type: string): Promise<Packet | null> {
  const q = dnsPacket.encode({
    type: 'query',
    id: id++ & 0xffff || 1,
    questions: [{ name, type: type as 'A', class: 'IN' }],
  });
  return decodeOrNull((await queryUdp(q, { host: '127.0.0.1', port, timeoutMs: 1000, retries: 1 })).response);
}

function rrset(p: Packet | null): string[] {
  return ((p?.answers ?? []) as { name: string; type: string; ttl: number; data: unknown }[])
    .map((a) => `${a.name.toLowerCase()} ${a.ttl} ${a.type} ${JSON.stringify(a.data)}`)
    .sort();
}

async function soaSerial(port: number): Promise<number | null> {
  const p = await ask(port, DOMAIN, 'SOA');
  const soa = (p?.answers ?? []).find((a) => a.type === 'SOA') as { data: { serial: number } } | undefined;
  return soa?.data.serial ?? null;
}

describe.skipIf(!isKnotAvailable() && !process.env.CI)('zone transfers out to a Knot secondary', () => {
  let t: TestApp;
  let token: string;
  let zoneId: number;
  let tcpPort: number;
  let knot: KnotServer;
  let knotPort: number;

  const addRecord = async (name: string, type: string, content: string): Promise<void> => {
    const r = await t.request('POST', `${ZONES}/${zoneId}/records`, {
      token,
      body: { name, type, content, ttl: 300 },
    });
    expect(r.status, r.text).toBe(201);
  };

  beforeAll(async () => {
    t = await startTestApp();
    token = (await t.signUp()).token;
    tcpPort = t.node.dns!.tcpPort;
    const zone = await t.request<{ id: number }>('POST', ZONES, { token, body: { domain: DOMAIN } });
    expect(zone.status, zone.text).toBe(201);
    zoneId = zone.body.id;
    await addRecord('www', 'A', '192.0.2.10');
    await addRecord('@', 'MX', '10 mail.example.test.');
    await addRecord('mail', 'AAAA', '2001:db8::25');
    await addRecord('txt', 'TXT', '"hello world"');
    knotPort = await freePort();
    const put = await t.request('PUT', `${ZONES}/${zoneId}/transfers`, {
      token,
      body: {
        allow_from: ['127.0.0.1'],
        tsig: { name: KEY, algorithm: 'hmac-sha256', secret: SECRET },
        notify: [`127.0.0.1:${knotPort}`],
      },
    });
    expect(put.status, put.text).toBe(200);
    await t.node.dns!.sync.settled();
    knot = await startKnot({
      port: knotPort,
      zones: [{ domain: DOMAIN, master: 'primary', acl: ['notify_from_primary'] }],
      keys: [{ id: KEY, algorithm: 'hmac-sha256', secret: SECRET }],
      remotes: [{ id: 'primary', address: `127.0.0.1@${tcpPort}`, key: KEY }],
      acls: [{ id: 'notify_from_primary', address: '127.0.0.1', action: 'notify', key: KEY }],
      logLevel: 'info',
    });
  }, 30_000);
  afterAll(async () => {
    await knot?.stop();
    await t?.close();
  });

  it('transfers the zone (AXFR) and answers as the primary does', async () => {
    expect(knot.log()).toMatch(/AXFR, incoming.*finished/);
    for (const [name, type] of [
      [DOMAIN, 'SOA'],
      [DOMAIN, 'NS'],
      [DOMAIN, 'MX'],
      [`www.${DOMAIN}`, 'A'],
      [`mail.${DOMAIN}`, 'AAAA'],
      [`txt.${DOMAIN}`, 'TXT'],
    ] as const) {
      const ours = await ask(t.node.dns!.udpPort, name, type);
      expect(rrset(ours).length, `${name} ${type}`).toBeGreaterThan(0);
      expect(rrset(await ask(knotPort, name, type)), `${name} ${type}`).toEqual(rrset(ours));
    }
  });

  it('follows a change: NOTIFY, then IXFR', async () => {
    const before = await soaSerial(t.node.dns!.udpPort);
    await addRecord('new', 'A', '192.0.2.99');
    await t.node.dns!.sync.settled();
    const after = await soaSerial(t.node.dns!.udpPort);
    expect(after).not.toBe(before);
    const deadline = Date.now() + FOLLOW_TIMEOUT_MS;
    while (Date.now() < deadline && (await soaSerial(knotPort)) !== after) {
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    expect(await soaSerial(knotPort)).toBe(after);
    expect(knot.log()).toMatch(/notify, incoming.*serial/);
    expect(knot.log()).toMatch(/IXFR, incoming.*finished/);
    expect(rrset(await ask(knotPort, `new.${DOMAIN}`, 'A'))).toEqual(
      rrset(await ask(t.node.dns!.udpPort, `new.${DOMAIN}`, 'A')),
    );
  });

  it('serves signed AXFR and IXFR to kdig with the key', async () => {
    const axfr = await kdig([
      `@127.0.0.1`,
      '-p',
      String(tcpPort),
      '-y',
      `hmac-sha256:${KEY}:${SECRET}`,
      'AXFR',
      DOMAIN,
    ]);
    expect(axfr).toMatch(/www\.example\.test\.\s+300\s+IN\s+A\s+192\.0\.2\.10/);
    expect(axfr).not.toMatch(/REFUSED|NOTAUTH|failed/i);
    const serial = await soaSerial(t.node.dns!.udpPort);
    const ixfr = await kdig([
      `@127.0.0.1`,
      '-p',
      String(tcpPort),
      '-y',
      `hmac-sha256:${KEY}:${SECRET}`,
      `IXFR=${serial! - 1}`,
      DOMAIN,
    ]);
    expect(ixfr).not.toMatch(/REFUSED|NOTAUTH|failed/i);
  });

  it('refuses a transfer without the key, and answers NOTAUTH to a bad signature', async () => {
    const unsigned = await kdig(['@127.0.0.1', '-p', String(tcpPort), 'AXFR', DOMAIN]);
    expect(unsigned).toMatch(/REFUSED/);
    const wrong = randomBytes(32).toString('base64');
    const badSig = await kdig([
      '@127.0.0.1',
      '-p',
      String(tcpPort),
      '-y',
      `hmac-sha256:${KEY}:${wrong}`,
      'AXFR',
      DOMAIN,
    ]);
    expect(badSig).toMatch(/NOTAUTH|BADSIG/);
    const badKey = await kdig([
      '@127.0.0.1',
      '-p',
      String(tcpPort),
      '-y',
      `hmac-sha256:other-key:${SECRET}`,
      'AXFR',
      DOMAIN,
    ]);
    expect(badKey).toMatch(/NOTAUTH|BADKEY/);
  });

  it('refuses a signed transfer from outside allow_from', async () => {
    const put = await t.request('PUT', `${ZONES}/${zoneId}/transfers`, {
      token,
      body: { allow_from: ['127.0.0.2'], tsig: { name: KEY, algorithm: 'hmac-sha256' }, notify: [] },
    });
    expect(put.status, put.text).toBe(200);
    await t.node.dns!.sync.settled();
    const out = await kdig([
      '@127.0.0.1',
      '-p',
      String(tcpPort),
      '-y',
      `hmac-sha256:${KEY}:${SECRET}`,
      'AXFR',
      DOMAIN,
    ]);
    expect(out).toMatch(/REFUSED/);
  });
});

describe('zone transfer settings API', () => {
  let t: TestApp;
  let token: string;
  let zoneId: number;
  const path = (): string => `${ZONES}/${zoneId}/transfers`;
  const good = {
    allow_from: ['192.0.2.0/24', '2001:db8::1'],
    tsig: null,
    notify: ['192.0.2.1:53', '[2001:db8::2]:5353'],
  };

  beforeAll(async () => {
    t = await startTestApp();
    token = (await t.signUp()).token;
    zoneId = (await t.request<{ id: number }>('POST', ZONES, { token, body: { domain: 'api.example.test' } }))
      .body.id;
  });
  afterAll(async () => t?.close());

  it('starts empty and stores what is put', async () => {
    expect((await t.request('GET', path(), { token })).body).toEqual({
      zone_id: zoneId,
      allow_from: [],
      tsig: null,
      notify: [],
    });
    const put = await t.request('PUT', path(), { token, body: good });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toEqual({ zone_id: zoneId, ...good });
  });

  it('never returns the secret, and keeps it when omitted for the same key', async () => {
    const secret = randomBytes(32).toString('base64');
    const put = await t.request('PUT', path(), {
      token,
      body: { ...good, tsig: { name: 'K1.', algorithm: 'HMAC-SHA256', secret } },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.tsig).toEqual({ name: 'k1', algorithm: 'hmac-sha256' });
    expect(put.text).not.toContain(secret);
    const get = await t.request('GET', path(), { token });
    expect(get.text).not.toContain(secret);
    expect(get.body.tsig).toEqual({ name: 'k1', algorithm: 'hmac-sha256' });
    const keep = await t.request('PUT', path(), {
      token,
      body: { ...good, tsig: { name: 'k1', algorithm: 'hmac-sha256' } },
    });
    expect(keep.status, keep.text).toBe(200);
    const newName = await t.request('PUT', path(), {
      token,
      body: { ...good, tsig: { name: 'k2', algorithm: 'hmac-sha256' } },
    });
    expect(newName.status).toBe(422);
    expect(newName.text).toContain('secret');
  });

  it.each([
    ['allow_from', { ...good, allow_from: ['10.0.0.0/33'] }],
    ['allow_from', { ...good, allow_from: ['not-an-ip'] }],
    [
      'algorithm',
      { ...good, tsig: { name: 'k', algorithm: 'hmac-md5', secret: randomBytes(32).toString('base64') } },
    ],
    ['secret', { ...good, tsig: { name: 'k', algorithm: 'hmac-sha256', secret: 'not base64!' } }],
    ['secret', { ...good, tsig: { name: 'k', algorithm: 'hmac-sha256', secret: 'c2hvcnQ=' } }],
    [
      'name',
      {
        ...good,
        tsig: { name: 'bad name', algorithm: 'hmac-sha256', secret: randomBytes(32).toString('base64') },
      },
    ],
    ['notify', { ...good, notify: ['192.0.2.1'] }],
    ['notify', { ...good, notify: ['192.0.2.1:70000'] }],
    ['notify', { ...good, notify: ['host.example:53'] }],
  ])('rejects a bad %s with 422 naming the field', async (field, body) => {
    const r = await t.request('PUT', path(), { token, body });
    expect(r.status, r.text).toBe(422);
    expect(r.text).toContain(field);
  });

  it("answers 404 for another user's zone", async () => {
    const other = (await t.signUp()).token;
    for (const method of ['GET', 'PUT'] as const) {
      const r = await t.request(method, path(), {
        token: other,
        ...(method === 'PUT' ? { body: good } : {}),
      });
      expect(r.status).toBe(404);
      expect(r.text).toContain('Zone not found');
    }
  });
});
