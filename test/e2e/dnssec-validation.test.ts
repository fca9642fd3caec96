/**
 * DNSSEC end to end: a zone made over the API, DNSSEC turned on with one call, then every kind of
 * answer validated by real validators — unbound (trusting only the zone's DS from the API) and
 * delv — plus a zone-walk check of the NSEC records and a ZSK rollover under a moved clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/kernel/clock.ts';
import { startTestApp, type TestApp } from '../../src/testing/test-app.ts';
import {
  delv,
  dig,
  isUnboundAvailable,
  startUnbound,
  type Unbound,
} from '../../src/testing/unbound-validator.ts';

const ZONES = '/api/v1/dns/zones';
const ZONE = 'signed-e2e.example';
const DAY = 86_400_000;

const RECORDS: [string, string, string][] = [
  ['www', 'A', '192.0.2.80'],
  ['www', 'AAAA', '2001:db8::80'],
  ['*.wild', 'A', '192.0.2.99'],
  ['alias', 'CNAME', 'alias2'],
  ['alias2', 'CNAME', 'www'],
  ['a.b.ent', 'A', '192.0.2.7'],
  ['mail', 'MX', '10 www'],
  ['insecure', 'NS', 'ns.elsewhere.example.'],
  ['secure', 'NS', 'ns.elsewhere.example.'],
  ['secure', 'DS', `12345 13 2 ${'ab'.repeat(32)}`],
];
/** Every name that exists in the zone (empty non-terminals included). */
const EXISTING = [
  ZONE,
  ...RECORDS.map(([n]) => `${n}.${ZONE}`),
  `b.ent.${ZONE}`,
  `ent.${ZONE}`,
  `wild.${ZONE}`,
  `lb.${ZONE}`,
];

async function until<T>(what: string, fn: () => Promise<T | null>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== null) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function signedZone(t: TestApp, token: string, domain: string, body: Record<string, unknown> = {}) {
  const zone = (await t.request('POST', ZONES, { token, body: { domain } })).body;
  for (const [name, type, content] of RECORDS) {
    const res = await t.request('POST', `${ZONES}/${zone.id}/records`, {
      token,
      body: { name, type, content },
    });
    expect(res.status, `${name} ${type}`).toBe(201);
  }
  const on = await t.request('PATCH', `${ZONES}/${zone.id}`, {
    token,
    body: { dnssec_enabled: true, ...body },
  });
  expect(on.status).toBe(200);
  const info = (await t.request('GET', `${ZONES}/${zone.id}/dnssec`, { token })).body;
  const port = t.node.dns!.udpPort;
  await until('the zone served signed', async () => {
    const r = await dig(port, domain, 'DNSKEY', ['+norec']);
    return r.records.some((l) => / RRSIG\s+DNSKEY /.test(l)) ? true : null;
  });
  return { zone, info, port, ds: info.ds_records[0] as string };
}

describe.skipIf(!isUnboundAvailable() && !process.env.CI).each(['nsec3', 'online'] as const)(
  'DNSSEC (denial: %s): answers validate in real validators',
  (denial) => {
    let t: TestApp;
    let unbound: Unbound;
    let port: number;
    let ds: string;
    let token: string;
    let zoneId: number;
    beforeAll(async () => {
      t = await startTestApp();
      ({ token } = await t.signUp());
      let zone: { id: number };
      let info: { denial: string };
      ({ port, ds, zone, info } = await signedZone(t, token, ZONE, { dnssec_denial: denial }));
      expect(info.denial).toBe(denial);
      zoneId = zone.id;
      // A load-balanced name, added once the zone is signed.
      const pool = await t.request('POST', `${ZONES}/${zoneId}/pools`, {
        token,
        body: { name: 'origins', members: [{ address: '1.1.1.1' }, { address: '8.8.8.8' }] },
      });
      expect(pool.status).toBe(201);
      const lb = await t.request('POST', `${ZONES}/${zoneId}/load-balancers`, {
        token,
        body: { hostname: 'lb', default_pools: [pool.body.id] },
      });
      expect(lb.status).toBe(201);
      await until('the load balancer served signed', async () => {
        const r = await dig(port, `lb.${ZONE}`, 'A', ['+norec']);
        return r.records.some((l) => / RRSIG A /.test(l)) ? true : null;
      });
      unbound = await startUnbound(ZONE, ds, port);
    }, 60_000);
    afterAll(async () => {
      await unbound?.stop();
      await t?.close();
    });

    const validated = async (name: string, type: string, status: string): Promise<void> => {
      const r = await dig(unbound.port, name, type);
      expect(r.status, `${name} ${type}\n${r.text}`).toBe(status);
      expect(r.flags, `${name} ${type}: AD\n${r.text}`).toContain('ad');
    };

    it.each([
      ['positive answer', `www.${ZONE}`, 'A', 'NOERROR'],
      ['DNSKEY (signed by the KSK)', ZONE, 'DNSKEY', 'NOERROR'],
      ['CDS and CDNSKEY', ZONE, 'CDS', 'NOERROR'],
      ['NXDOMAIN', `nope.${ZONE}`, 'A', 'NXDOMAIN'],
      ['NXDOMAIN deeper', `x.y.nope.${ZONE}`, 'AAAA', 'NXDOMAIN'],
      ['NODATA', `www.${ZONE}`, 'TXT', 'NOERROR'],
      ['NODATA at the apex', ZONE, 'TXT', 'NOERROR'],
      ['empty non-terminal', `ent.${ZONE}`, 'A', 'NOERROR'],
      ['wildcard answer', `host.wild.${ZONE}`, 'A', 'NOERROR'],
      ['wildcard NODATA', `host.wild.${ZONE}`, 'MX', 'NOERROR'],
      ['CNAME chain', `alias.${ZONE}`, 'A', 'NOERROR'],
      ['MX with additional data', `mail.${ZONE}`, 'MX', 'NOERROR'],
      ['no DS at an insecure delegation', `insecure.${ZONE}`, 'DS', 'NOERROR'],
      ['signed DS at a secure delegation', `secure.${ZONE}`, 'DS', 'NOERROR'],
      ['load-balanced answer', `lb.${ZONE}`, 'A', 'NOERROR'],
      ['NODATA at a load-balanced name', `lb.${ZONE}`, 'TXT', 'NOERROR'],
      ['NXDOMAIN of a random name', `${Math.random().toString(36).slice(2, 12)}.${ZONE}`, 'A', 'NXDOMAIN'],
      ['NXDOMAIN below a wildcard-less name', `x.www.${ZONE}`, 'A', 'NXDOMAIN'],
      ['NSEC3PARAM (or NODATA for it)', ZONE, 'NSEC3PARAM', 'NOERROR'],
    ])('%s validates (AD)', async (_what, name, type, status) => {
      await validated(name, type, status);
    });

    it('validates after record changes applied by name: a new name, a new ENT, then both gone', async () => {
      const base = `${ZONES}/${zoneId}/records`;
      const added = await t.request<{ id: number }>('POST', base, {
        token,
        body: { name: 'late.deep', type: 'A', content: '192.0.2.44' },
      });
      expect(added.status, added.text).toBe(201);
      await until('the new name served', async () => {
        const r = await dig(port, `late.deep.${ZONE}`, 'A', ['+norec']);
        return r.status === 'NOERROR' && r.records.length > 0 ? true : null;
      });
      await validated(`late.deep.${ZONE}`, 'A', 'NOERROR');
      await validated(`deep.${ZONE}`, 'A', 'NOERROR');
      await validated(`other.deep.${ZONE}`, 'A', 'NXDOMAIN');
      expect((await t.request('DELETE', `${base}/${added.body.id}`, { token })).status).toBe(204);
      await until('the name gone', async () => {
        const r = await dig(port, `deep.${ZONE}`, 'A', ['+norec']);
        return r.status === 'NXDOMAIN' ? true : null;
      });
      // The validator caches the earlier answers: ask names it has not seen.
      await validated(`late2.deep.${ZONE}`, 'A', 'NXDOMAIN');
      const reloads = (await t.request('GET', '/metrics')).text;
      expect(reloads).toMatch(/^dns_zone_reloads_total\{scope="names"\} [1-9]/m);
    });

    it('answers authoritatively without AD, and unsigned without DO', async () => {
      const signed = await dig(port, `www.${ZONE}`, 'A', ['+norec']);
      expect(signed.flags).toContain('aa');
      expect(signed.flags).not.toContain('ad');
      expect(signed.records.some((l) => / RRSIG\s+A 13 3 300 /.test(l))).toBe(true);
      const plain = await dig(port, `www.${ZONE}`, 'A', ['+norec', '+nodnssec']);
      expect(plain.records.some((l) => /RRSIG/.test(l))).toBe(false);
    });

    it.runIf(denial === 'nsec3')('proves NXDOMAIN with the NSEC3 records of the stored chain', async () => {
      const param = await dig(port, ZONE, 'NSEC3PARAM', ['+norec']);
      expect(
        param.records.some((l) => /\sNSEC3PARAM\s+1 0 0 -$/.test(l)),
        param.text,
      ).toBe(true);
      const name = `${Math.random().toString(36).slice(2, 12)}.${ZONE}`;
      const r = await dig(port, name, 'A', ['+norec']);
      expect(r.status).toBe('NXDOMAIN');
      const nsec3 = r.records.filter((l) => /\sNSEC3\s+1 0 0 - /.test(l));
      // Closest encloser, next closer and wildcard: three records, two when one NSEC3 covers both.
      expect(nsec3.length, r.text).toBeGreaterThanOrEqual(2);
      expect(nsec3.length, r.text).toBeLessThanOrEqual(3);
      expect(r.records.filter((l) => /\sRRSIG\s+NSEC3 /.test(l))).toHaveLength(nsec3.length);
      expect(r.records.some((l) => /\sNSEC\s/.test(l))).toBe(false);
      const lb = await dig(port, `lb.${ZONE}`, 'AAAA', ['+norec']);
      expect(
        lb.records.some((l) => /\sNSEC3\s+1 0 0 - \S+ A RRSIG$/.test(l)),
        lb.text,
      ).toBe(true);
      expect(await delv(port, ds, name, 'A')).toContain('fully validated');
    });

    it.runIf(denial === 'online')('shows A in the NSEC bitmap of a load-balanced name', async () => {
      const r = await dig(port, `lb.${ZONE}`, 'AAAA', ['+norec']);
      expect(r.records).toContain(`lb.${ZONE}. 300 IN NSEC \\000.lb.${ZONE}. A RRSIG NSEC`);
    });

    it('delv says "fully validated" for positive and negative answers', async () => {
      for (const [name, type] of [
        [`www.${ZONE}`, 'A'],
        [`host.wild.${ZONE}`, 'A'],
        [`nope.${ZONE}`, 'A'],
        [`www.${ZONE}`, 'TXT'],
      ] as const) {
        expect(await delv(port, ds, name, type), `${name} ${type}`).toContain('fully validated');
      }
    });

    it.runIf(denial === 'online')(
      'does not let anyone walk the zone: NSEC names are the asked names or made up',
      async () => {
        const asked = new Set<string>();
        const seen = new Set<string>();
        const names = [
          ...Array.from({ length: 20 }, (_, i) => `r${i}${Math.random().toString(36).slice(2, 8)}.${ZONE}`),
          `q.r.s.${ZONE}`,
          `zzz.${ZONE}`,
          `a.${ZONE}`,
          `www.${ZONE}`,
          `ent.${ZONE}`,
        ];
        for (const name of names) {
          asked.add(name);
          for (const type of ['A', 'TXT']) {
            const r = await dig(port, name, type, ['+norec']);
            for (const line of r.records) {
              const m = /^(\S+)\s+\d+\s+IN\s+NSEC\s+(\S+)/.exec(line);
              if (m) for (const n of [m[1]!, m[2]!]) seen.add(n.replace(/\.$/, '').toLowerCase());
            }
          }
        }
        expect(seen.size).toBeGreaterThan(20);
        const revealed = [...seen].filter((n) => EXISTING.includes(n) && !asked.has(n));
        expect(revealed).toEqual([]);
      },
    );

    it('turning DNSSEC off publishes the RFC 8078 delete CDS/CDNSKEY, still signed', async () => {
      const off = await t.request('PATCH', `${ZONES}/${zoneId}`, { token, body: { dnssec_enabled: false } });
      expect(off.body.dnssec_enabled).toBe(false);
      const cds = await until('the delete CDS', async () => {
        const r = await dig(port, ZONE, 'CDS', ['+norec']);
        return r.records.some((l) => /\sCDS\s+0 0 0 00$/.test(l)) ? r : null;
      });
      expect(cds.records.some((l) => /RRSIG\s+CDS /.test(l))).toBe(true);
      const cdnskey = await dig(port, ZONE, 'CDNSKEY', ['+norec']);
      expect(cdnskey.records.some((l) => /\sCDNSKEY\s+0 3 0 AA==$/.test(l))).toBe(true);
      expect(await delv(port, ds, ZONE, 'CDS')).toContain('fully validated');
    });
  },
);

describe.skipIf(!isUnboundAvailable() && !process.env.CI)('DNSSEC: ZSK rollover under a moved clock', () => {
  let t: TestApp;
  let now = Date.now();
  const clock: Clock = { now: () => now };
  beforeAll(async () => {
    t = await startTestApp({ clock, env: { DNSSEC_KEY_CHECK_INTERVAL_S: '1', DNSSEC_ZSK_ROLL_DAYS: '30' } });
  }, 30_000);
  afterAll(async () => t?.close());

  it('validates before, during and after a pre-publish ZSK rollover; the serial moves each step', async () => {
    const { token: first, email } = await t.signUp();
    let token = first;
    // Access tokens expire as the clock moves: log in again after each move.
    const login = async (): Promise<void> => {
      const res = await t.request('POST', '/api/v1/auth/login', {
        body: { email, password: 'correct horse battery' },
      });
      token = res.body.access_token;
    };
    const domain = 'roll-e2e.example';
    const { zone, info, port, ds } = await signedZone(t, token, domain, { dnssec_algorithm: 'ED25519' });
    expect(info.algorithm).toBe('ED25519');
    const dnskeys = async () =>
      (await dig(port, domain, 'DNSKEY', ['+norec'])).records.filter((l) => /\sDNSKEY\s+256 /.test(l)).length;
    const serial = async () =>
      (await t.request('GET', `${ZONES}/${zone.id}`, { token })).body.serial as number;
    const valid = async (step: string) => {
      for (const [name, type] of [
        [`www.${domain}`, 'A'],
        [`nope.${domain}`, 'A'],
        [domain, 'DNSKEY'],
      ] as const) {
        expect(await delv(port, ds, name, type), `${step}: ${name} ${type}`).toContain('fully validated');
      }
    };
    await valid('before');
    const s0 = await serial();
    expect(await dnskeys()).toBe(1);

    // 1. One DNSKEY TTL (+ margin) before the roll is due, the next ZSK is published.
    now += 30 * DAY - 2 * 3600_000 + 1000;
    await login();
    await until('the next ZSK published', async () => ((await dnskeys()) === 2 ? true : null));
    expect(await serial()).toBeGreaterThan(s0);
    const during = (await t.request('GET', `${ZONES}/${zone.id}/dnssec`, { token })).body;
    expect(during.zsk_key_tag).toBe(info.zsk_key_tag);
    await valid('published');

    // 2. After the lead time the new key signs; the old one stays published.
    now += 2 * 3600_000;
    await login();
    const rolled = await until('the new ZSK active', async () => {
      const d = (await t.request('GET', `${ZONES}/${zone.id}/dnssec`, { token })).body;
      return d.zsk_key_tag !== info.zsk_key_tag ? d : null;
    });
    expect(Date.parse(rolled.zsk_rotated_at)).toBeLessThanOrEqual(now);
    expect(Date.parse(rolled.zsk_rotated_at)).toBeGreaterThan(now - 3600_000);
    await until('answers signed by the new ZSK', async () => {
      const r = await dig(port, `www.${domain}`, 'A', ['+norec']);
      return r.records.some((l) =>
        new RegExp(` RRSIG\\s+A 15 3 300 \\d+ \\d+ ${rolled.zsk_key_tag} `).test(l),
      )
        ? true
        : null;
    });
    expect(await dnskeys()).toBe(2);
    await valid('active');

    // 3. Once the old key's signatures have expired, it is withdrawn.
    now += 15 * DAY;
    await login();
    await until('the old ZSK withdrawn', async () => ((await dnskeys()) === 1 ? true : null));
    await valid('after');
  }, 90_000);
});
