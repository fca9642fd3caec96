import { describe, expect, it } from 'vitest';
import { PREPARE_PATCHING_NODES, PREPARE_PATCHING_SLICE, ZoneStore } from './zone-store.ts';
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

  it("prepares a large zone's patch index a slice per turn; a patch before the end finishes it", async () => {
    const hosts = PREPARE_PATCHING_NODES + 2 * PREPARE_PATCHING_SLICE;
    const lines = Array.from({ length: hosts }, (_, i) => `h${i} A 192.0.2.${i & 0xff}`);
    lines.push('mx MX 10 h7', 'h7 A 198.51.100.7');
    const zone = z(1, 'big.example', lines.join('\n'));
    const store = new ZoneStore();
    store.upsert(zone);
    let turns = 0;
    let done = false;
    void store.patchingPrepared().then(() => (done = true));
    while (!done) {
      await new Promise((r) => setImmediate(r));
      turns++;
    }
    // Every slice its own turn: the answers go on between them.
    expect(turns).toBeGreaterThanOrEqual(Math.ceil(hosts / PREPARE_PATCHING_SLICE));

    const early = new ZoneStore();
    early.upsert(zone);
    await new Promise((r) => setImmediate(r)); // one slice done, the rest not
    const at = new Set(['h7.big.example', 'big.example']);
    const changed = {
      ...zone,
      serial: 2,
      records: zone.records.filter((r) => !at.has(r.name) || r.type !== 1),
    };
    expect(
      early.patch({ ...changed, records: changed.records.filter((r) => at.has(r.name)) }, ['h7.big.example']),
    ).toBe(true);
    const full = buildZoneSnapshot(changed);
    const patched = early.get(1)!;
    expect(patched.nodes.size).toBe(full.nodes.size);
    // The MX's additional data followed the change at its target (the referrers index was whole).
    const mx = (s: typeof full) => s.nodes.get(keys('mx.big.example')[0]!)!.rrset(15)!.additional.length;
    expect(mx(full)).toBe(0);
    expect(mx(patched)).toBe(0);
    await early.patchingPrepared();
  });
});
