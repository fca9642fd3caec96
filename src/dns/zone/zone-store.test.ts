import { describe, expect, it } from 'vitest';
import { ZoneStore } from './zone-store.ts';
import { buildZoneSnapshot } from './zone-snapshot-builder.ts';
import { wireNameFromText } from '../wire/wire-name.ts';
import { zoneFromText } from '../../testing/dns-zone-fixture.ts';

const keys = (name: string) => wireNameFromText(name).keys;
const z = (id: number, origin: string, extra = '') =>
  zoneFromText(id, origin, `$TTL 300\n@ SOA ns h 1 2 3 4 60\n@ NS ns\nns A 192.0.2.1\n${extra}`);

describe('ZoneSnapshot', () => {
  it('groups RRsets, uses the smallest TTL, adds empty non-terminals, finds cuts and wildcards', () => {
    const s = buildZoneSnapshot(
      z(1, 'example.com', 'a.b.c TXT "x"\nw 10 TXT "1"\nw 20 TXT "2"\nd NS ns.d\n*.wc A 192.0.2.2'),
    );
    expect([...s.nodes.keys()].map((k) => k.length > 0)).toContain(true);
    expect(s.nodes.has(keys('b.c.example.com')[0]!)).toBe(true);
    expect(s.nodes.get(keys('c.example.com')[0]!)!.rrsets).toHaveLength(0);
    expect(s.nodes.get(keys('w.example.com')[0]!)!.rrset(16)!.ttl).toBe(10);
    expect(s.nodes.get(keys('d.example.com')[0]!)!.delegation).toBe(true);
    expect(s.nodes.get(s.apexKey)!.delegation).toBe(false);
    expect(s.hasWildcards).toBe(true);
    expect(s.negativeSoa!.ttl).toBe(60);
  });

  it('keys are case-insensitive and handle escapes', () => {
    expect(keys('WwW.Example.COM')).toEqual(keys('www.example.com'));
    expect(wireNameFromText('a\\.b.c').keys.length).toBe(2);
    expect(wireNameFromText('\\065.c').keys[0]).toBe(keys('a.c')[0]);
  });

  it('skips records outside the zone instead of failing', () => {
    const zone = z(1, 'example.com');
    const s = buildZoneSnapshot({
      ...zone,
      records: [...zone.records, { name: 'other.org', type: 1, ttl: 1, rdata: new Uint8Array(4) }],
    });
    expect(s.skipped).toBe(1);
  });
});

describe('ZoneStore', () => {
  it('finds the closest enclosing zone; upsert, remove and replaceAll swap atomically', () => {
    const store = new ZoneStore();
    store.replaceAll([z(1, 'example.com'), z(2, 'sub.example.com')]);
    expect(store.findZone(keys('a.sub.example.com'))!.id).toBe(2);
    expect(store.findZone(keys('a.example.com'))!.id).toBe(1);
    expect(store.findZone(keys('sub.example.com'), 1)!.id).toBe(1);
    expect(store.findZone(keys('example.org'))).toBeNull();
    const before = store.findZone(keys('x.sub.example.com'));
    store.remove(2);
    expect(store.findZone(keys('x.sub.example.com'))!.id).toBe(1);
    expect(before!.id).toBe(2); // a reader keeps its snapshot
    store.upsert(z(1, 'example.net'));
    expect(store.findZone(keys('example.com'))).toBeNull();
    expect(store.findZone(keys('www.example.net'))!.id).toBe(1);
    store.upsert(z(3, ''));
    expect(store.findZone(keys('anything.org'))!.id).toBe(3);
    expect(store.size).toBe(2);
  });
});
