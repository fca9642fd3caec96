/**
 * IXFR over UDP (RFC 1995 §2) beside a real Knot serving the same zone file in the same run: a
 * zone with transfer settings answers the current SOA alone whatever the client's serial (the
 * client then retries over TCP), as Knot does with a transfer ACL; a zone without them answers
 * NOTAUTH, as Knot without an ACL; a source outside allow_from is refused (our TCP rule).
 */
import dnsPacket from 'dns-packet';
import type { Packet } from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeOrNull, queryUdp } from '../../src/testing/dns-client.ts';
import { freePort } from '../../src/testing/free-port.ts';
import { isKnotAvailable, startKnot, type KnotServer } from '../../src/testing/knot-server.ts';
import { startTestApp, type TestApp } from '../../src/testing/test-app.ts';

const ZONES = '/api/v1/dns/zones';
const SHARED = 'xfr-udp.test';
const PLAIN = 'plain-udp.test';

interface Seen {
  rcode: string | undefined;
  aa: boolean;
  answers: string[];
  authorities: number;
}

function ixfrQuery(domain: string, serial: number | null): Buffer {
  return dnsPacket.encode({
    type: 'query',
    id: 4242,
    questions: [{ name: domain, type: 'IXFR', class: 'IN' }],
    ...(serial === null
      ? {}
      : {
          authorities: [
            {
              name: domain,
              type: 'SOA',
              data: { mname: 'a.', rname: 'b.', serial, refresh: 1, retry: 1, expire: 1, minimum: 1 },
            },
          ],
        }),
  });
}

async function ask(port: number, domain: string, serial: number | null): Promise<Seen> {
  const res = await queryUdp(ixfrQuery(domain, serial), { host: '127.0.0.1', port, timeoutMs: 1000 });
  const p = decodeOrNull(res.response) as (Packet & { rcode?: string; flag_aa?: boolean }) | null;
  expect(p, 'a decodable response').not.toBeNull();
  return {
    rcode: p!.rcode,
    aa: p!.flag_aa === true,
    answers: ((p!.answers ?? []) as { name: string; type: string; ttl: number; data: unknown }[]).map(
      (a) => `${a.name.toLowerCase()} ${a.ttl} ${a.type} ${JSON.stringify(a.data)}`,
    ),
    authorities: (p!.authorities ?? []).length,
  };
}

describe.skipIf(!isKnotAvailable() && !process.env.CI)('IXFR over UDP, beside Knot', () => {
  let t: TestApp;
  let token: string;
  let knot: KnotServer;
  let knotPort: number;
  let sharedId: number;
  let serial: number;

  const zone = async (domain: string): Promise<number> => {
    const z = await t.request<{ id: number }>('POST', ZONES, { token, body: { domain } });
    expect(z.status, z.text).toBe(201);
    const r = await t.request('POST', `${ZONES}/${z.body.id}/records`, {
      token,
      body: { name: 'www', type: 'A', content: '192.0.2.10', ttl: 300 },
    });
    expect(r.status, r.text).toBe(201);
    return z.body.id;
  };
  const exported = async (id: number): Promise<string> => {
    const r = await t.request('GET', `${ZONES}/${id}/export`, { token });
    expect(r.status, r.text).toBe(200);
    return r.text;
  };

  beforeAll(async () => {
    t = await startTestApp();
    token = (await t.signUp()).token;
    sharedId = await zone(SHARED);
    const plainId = await zone(PLAIN);
    const put = await t.request('PUT', `${ZONES}/${sharedId}/transfers`, {
      token,
      body: { allow_from: ['127.0.0.1'], tsig: null, notify: [] },
    });
    expect(put.status, put.text).toBe(200);
    await t.node.dns!.sync.settled();
    const zone1 = await exported(sharedId);
    serial = Number(/ SOA \S+ \S+ (\d+) /.exec(zone1)![1]);
    knotPort = await freePort();
    knot = await startKnot({
      port: knotPort,
      zones: [
        { domain: SHARED, text: zone1, acl: ['xfr'] },
        { domain: PLAIN, text: await exported(plainId) },
      ],
      acls: [{ id: 'xfr', address: '127.0.0.1', action: 'transfer' }],
    });
  }, 30_000);
  afterAll(async () => {
    await knot?.stop();
    await t?.close();
  });

  it('answers the current SOA alone, whatever the client serial, as Knot', async () => {
    for (const s of [serial, serial - 1, 0, serial + 5]) {
      const ours = await ask(t.node.dns!.udpPort, SHARED, s);
      expect(ours.rcode, `serial ${s}`).toBe('NOERROR');
      expect(ours.answers, `serial ${s}`).toHaveLength(1);
      expect(ours.answers[0], `serial ${s}`).toContain(`"serial":${serial}`);
      expect(ours, `serial ${s}`).toEqual(await ask(knotPort, SHARED, s));
    }
  });

  it('answers NOTAUTH for a zone without transfer settings, as Knot without an ACL', async () => {
    const ours = await ask(t.node.dns!.udpPort, PLAIN, serial);
    expect(ours.rcode).toBe('NOTAUTH');
    expect(ours).toEqual(await ask(knotPort, PLAIN, serial));
  });

  it('answers FORMERR to an IXFR without the SOA of the client, as Knot', async () => {
    const ours = await ask(t.node.dns!.udpPort, SHARED, null);
    expect(ours.rcode).toBe('FORMERR');
    expect(ours.rcode).toBe((await ask(knotPort, SHARED, null)).rcode);
  });

  it('refuses a source outside allow_from', async () => {
    const put = await t.request('PUT', `${ZONES}/${sharedId}/transfers`, {
      token,
      body: { allow_from: ['127.0.0.2'], tsig: null, notify: [] },
    });
    expect(put.status, put.text).toBe(200);
    await t.node.dns!.sync.settled();
    expect((await ask(t.node.dns!.udpPort, SHARED, serial - 1)).rcode).toBe('REFUSED');
  });
});
