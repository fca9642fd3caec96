import dnsPacket from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { nameToWire, parseStoredName } from '../wire/name-text.ts';
import type { ZoneData, ZoneRecordData } from '../zone/zone-data.ts';
import { createTransferHandler, type ZoneVersionSource } from './transfer-handler.ts';
import { isTransferQuery, parseTransferQuery } from './transfer-query.ts';
import { TransferZones } from './transfer-zones.ts';
import { packedZone } from '../zone/packed-records.ts';
import { TsigSigner, verifyRequest } from './tsig-hmac.ts';

const KEY = { name: 'k1', algorithm: 'hmac-sha256' as const, secret: new Uint8Array(32).fill(7) };

function soa(serial: number): ZoneRecordData {
  const rdata = Buffer.concat([
    nameToWire(parseStoredName('ns1.example.test')),
    nameToWire(parseStoredName('hostmaster.example.test')),
    Buffer.from([serial >>> 24, (serial >>> 16) & 0xff, (serial >>> 8) & 0xff, serial & 0xff]),
    Buffer.alloc(16, 1),
  ]);
  return { name: 'example.test', type: 6, ttl: 3600, rdata };
}
const a = (name: string, last: number): ZoneRecordData => ({
  name,
  type: 1,
  ttl: 300,
  rdata: new Uint8Array([192, 0, 2, last]),
});

function zone(serial: number, records: ZoneRecordData[], allowFrom = ['127.0.0.1']): ZoneData {
  return {
    id: 1,
    domain: 'example.test',
    serial,
    records: [soa(serial), ...records],
    transfer: { allowFrom, tsig: null },
  };
}

function query(type: 'AXFR' | 'IXFR' | 'SOA', clientSerial?: number): Buffer {
  return dnsPacket.encode({
    type: 'query',
    id: 42,
    questions: [{ name: 'example.test', type: type as 'A', class: 'IN' }],
    ...(clientSerial === undefined
      ? {}
      : {
          authorities: [
            {
              name: 'example.test',
              type: 'SOA',
              data: {
                mname: 'a',
                rname: 'b',
                serial: clientSerial,
                refresh: 1,
                retry: 1,
                expire: 1,
                minimum: 1,
              },
            },
          ],
        }),
  });
}

function answers(messages: Buffer[]): string[] {
  return messages.flatMap((m) =>
    ((dnsPacket.decode(m).answers ?? []) as { type: string; name: string; data: unknown }[]).map(
      (r) =>
        `${r.type} ${r.name} ${r.type === 'SOA' ? (r.data as { serial: number }).serial : String(r.data)}`,
    ),
  );
}

function setup(current: ZoneData, history: Map<number, ZoneRecordData[]>) {
  const zones = new TransferZones();
  zones.upsert(current);
  const source: ZoneVersionSource = { recordsAt: async (_id, serial) => history.get(serial) ?? null };
  return createTransferHandler({ zones, history: source });
}

describe('transfer handler', () => {
  const v1 = [a('www.example.test', 1), a('old.example.test', 2)];
  const v2 = [a('www.example.test', 1), a('new.example.test', 3)];
  const handler = setup(zone(2, v2), new Map([[1, [soa(1), ...v1]]]));

  it('recognises transfer queries only', () => {
    expect(isTransferQuery(query('AXFR'))).toBe(true);
    expect(isTransferQuery(query('IXFR', 1))).toBe(true);
    expect(isTransferQuery(query('SOA'))).toBe(false);
  });

  it('streams AXFR framed by the SOA (RFC 5936 §2.2)', async () => {
    const r = await handler.handle(query('AXFR'), '127.0.0.1');
    expect(answers(r.messages)).toEqual([
      'SOA example.test 2',
      'A www.example.test 192.0.2.1',
      'A new.example.test 192.0.2.3',
      'SOA example.test 2',
    ]);
  });

  it('streams a zone handed over packed whole, not its apex alone', async () => {
    const whole = zone(2, v2);
    const r = await setup(packedZone(whole), new Map()).handle(query('AXFR'), '127.0.0.1');
    expect(answers(r.messages)).toEqual([
      'SOA example.test 2',
      'A www.example.test 192.0.2.1',
      'A new.example.test 192.0.2.3',
      'SOA example.test 2',
    ]);
  });

  it('answers IXFR with one condensed difference sequence (RFC 1995 §4)', async () => {
    const r = await handler.handle(query('IXFR', 1), '127.0.0.1');
    expect(answers(r.messages)).toEqual([
      'SOA example.test 2',
      'SOA example.test 1',
      'A old.example.test 192.0.2.2',
      'SOA example.test 2',
      'A new.example.test 192.0.2.3',
      'SOA example.test 2',
    ]);
  });

  it('answers an up-to-date IXFR with the SOA alone, an unknown serial with the whole zone', async () => {
    expect(answers((await handler.handle(query('IXFR', 2), '127.0.0.1')).messages)).toEqual([
      'SOA example.test 2',
    ]);
    expect(answers((await handler.handle(query('IXFR', 0), '127.0.0.1')).messages)).toHaveLength(4);
  });

  it('refuses a source outside allow_from and an unsigned query when a key is set', async () => {
    expect((await handler.handle(query('AXFR'), '127.0.0.2')).rcode).toBe(5);
    const keyed = setup({ ...zone(2, v2), transfer: { allowFrom: ['127.0.0.1'], tsig: KEY } }, new Map());
    expect((await keyed.handle(query('AXFR'), '127.0.0.1')).rcode).toBe(5);
  });

  it('verifies a signed query and signs every message of the response (RFC 8945)', async () => {
    const keyed = setup({ ...zone(2, v2), transfer: { allowFrom: ['127.0.0.1'], tsig: KEY } }, new Map());
    const now = Math.floor(Date.now() / 1000);
    const signed = new TsigSigner(KEY, null, now).sign(query('AXFR'));
    const r = await keyed.handle(signed, '127.0.0.1');
    expect(r.rcode).toBe(0);
    const first = parseTransferQuery(r.messages[0]!);
    expect(first.tsig?.mac.length).toBe(32);
    // A wrong secret: NOTAUTH with BADSIG.
    const bad = new TsigSigner({ ...KEY, secret: new Uint8Array(32) }, null, now).sign(query('AXFR'));
    const refused = await keyed.handle(bad, '127.0.0.1');
    expect(refused.rcode).toBe(9);
    expect(parseTransferQuery(refused.messages[0]!).tsig?.error).toBe(16);
    const q = parseTransferQuery(signed);
    expect(verifyRequest(signed, q.tsig!, KEY, now + 10_000)).toMatchObject({ ok: false, error: 18 });
  });

  it('answers IXFR over UDP with the current SOA alone, whatever the serial (RFC 1995 §2, as Knot)', () => {
    for (const serial of [0, 1, 2, 9]) {
      const r = handler.handleUdp(query('IXFR', serial), '127.0.0.1');
      expect(r?.rcode).toBe(0);
      expect(r?.messages).toHaveLength(1);
      expect(answers(r!.messages)).toEqual(['SOA example.test 2']);
      expect(dnsPacket.decode(r!.messages[0]!).flag_aa).toBe(false);
    }
  });

  it('applies the same checks to IXFR over UDP, and leaves policy-less zones to the normal path', () => {
    expect(handler.handleUdp(query('IXFR', 1), '127.0.0.2')?.rcode).toBe(5);
    expect(handler.handleUdp(query('IXFR'), '127.0.0.1')?.rcode).toBe(1);
    const keyed = setup({ ...zone(2, v2), transfer: { allowFrom: ['127.0.0.1'], tsig: KEY } }, new Map());
    expect(keyed.handleUdp(query('IXFR', 1), '127.0.0.1')?.rcode).toBe(5);
    const now = Math.floor(Date.now() / 1000);
    const signed = keyed.handleUdp(new TsigSigner(KEY, null, now).sign(query('IXFR', 1)), '127.0.0.1');
    expect(signed?.rcode).toBe(0);
    expect(parseTransferQuery(signed!.messages[0]!).tsig?.mac.length).toBe(32);
    const plain = setup({ ...zone(2, v2), transfer: undefined }, new Map());
    expect(plain.handleUdp(query('IXFR', 1), '127.0.0.1')).toBeNull();
  });
});
