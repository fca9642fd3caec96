import { describe, expect, it } from 'vitest';
import { nameKeyHash } from '../wire/name-key-hash.ts';
import { keyOfText, wireNameFromText } from '../wire/wire-name.ts';
import { PackedNodeTable } from './packed-node-table.ts';
import { PACKED_ZONE_RECORDS, packRecords } from './packed-records.ts';
import type { ZoneRecordData } from './zone-data.ts';
import { buildWholeSnapshot, buildZoneSnapshot } from './zone-snapshot-builder.ts';
import { ZoneNode } from './zone-snapshot.ts';

const A = (name: string, last: number, ttl = 60): ZoneRecordData => ({
  name,
  type: 1,
  ttl,
  rdata: Uint8Array.of(192, 0, 2, last),
});
const SOA: ZoneRecordData = {
  name: 'p.test',
  type: 6,
  ttl: 300,
  rdata: Uint8Array.from([2, 0x6e, 0x73, 0, 1, 0x68, 0, ...new Array<number>(20).fill(1)]),
};

/** An NS record with `rdata` as given (malformed on purpose in some tests). */
const ns = (name: string, rdata: number[]): ZoneRecordData => ({
  name,
  type: 2,
  ttl: 60,
  rdata: Uint8Array.from(rdata),
});

function table(records: ZoneRecordData[], generation?: number): PackedNodeTable {
  return new PackedNodeTable(packRecords(records), wireNameFromText('p.test'), [], generation);
}

describe('PackedNodeTable', () => {
  it('indexes owners and their empty parents, skips owners outside the zone and bad names', () => {
    const t = table([SOA, A('a.b.c.p.test', 1), A('other.test', 2), A('bad..p.test', 3), A('x.p.test', 4)]);
    expect([...t.keys()].map((k) => k.length).sort()).toHaveLength(5); // apex, a.b.c, b.c, c, x
    expect(t.has(keyOfText('b.c.p.test'))).toBe(true);
    expect(t.get(keyOfText('b.c.p.test'))!.rrsetCount).toBe(0);
    expect(t.has(keyOfText('other.test'))).toBe(false);
    expect(t.index.skipped).toBe(2);
    expect(t.index.childCount(t.index.find(keyOfText('c.p.test')))).toBe(1);
    expect(t.index.childCount(0)).toBe(2);
  });

  it('gathers an owner met in several runs, keeps its first spelling, reads escapes and upper case', () => {
    const t = table([SOA, A('WwW.p.test', 1), A('x.p.test', 2), A('www.p.test', 3), A('a\\.b.p.test', 4)]);
    const www = t.get(keyOfText('www.p.test'))!;
    expect(www.rrset(1)!.count).toBe(2);
    expect(Buffer.from(www.wire).toString('latin1')).toBe('\x03WwW\x01p\x04test\x00');
    expect(t.get(keyOfText('a\\.b.p.test'))!.rrset(1)!.count).toBe(1);
    expect(t.has(keyOfText('b.p.test'))).toBe(false);
  });

  it('finds by hash what it holds, and answers as a whole build after eviction', () => {
    const records = [SOA];
    for (let i = 0; i < 200; i++) records.push(A(`h${i}.p.test`, i & 0xff, i));
    const t = table(records, 4);
    const whole = buildZoneSnapshot({ id: 1, domain: 'p.test', serial: 1, records }).nodes;
    for (let round = 0; round < 2; round++) {
      for (const [key, node] of whole) {
        expect(t.mayHave(nameKeyHash(key))).toBe(true);
        const got = t.get(key)!;
        expect(got.rrsets.map((rs) => [rs.type, rs.ttl, rs.rdatas])).toEqual(
          node.rrsets.map((rs) => [rs.type, rs.ttl, rs.rdatas]),
        );
      }
    }
    expect(t.mayHave(nameKeyHash(keyOfText('nope.p.test')))).toBe(false);
    expect(t.size).toBe(whole.size);
  });

  it('makes a node and its additional-data targets, not the targets of those (a long MX chain)', () => {
    const label = (l: string): number[] => [l.length, ...Buffer.from(l)];
    const mx = (name: string, target: string): ZoneRecordData => ({
      name,
      type: 15,
      ttl: 60,
      rdata: Uint8Array.from([0, 10, ...target.split('.').flatMap(label), 0]),
    });
    // Each name's MX names the next: followed whole, one lookup made every name (and overflowed the stack).
    const records = [SOA, mx('p.test', 'h0.p.test')];
    for (let i = 0; i < 30_000; i++)
      records.push(A(`h${i}.p.test`, i & 0xff), mx(`h${i}.p.test`, `h${i + 1}.p.test`));
    const t = table(records, 8);
    const whole = buildWholeSnapshot({ id: 1, domain: 'p.test', serial: 1, records }).nodes;
    const additional = (node: ZoneNode | undefined): string[] =>
      node!.rrset(15)!.additional.map((e) => `${e.owner.keys[0]} ${e.rrset.type} ${e.glue}`);
    for (const i of [0, 1, 2, 29_999, 1, 0]) {
      const key = keyOfText(`h${i}.p.test`);
      expect(additional(t.get(key)), `h${i}`).toEqual(additional(whole.get(key)));
    }
    expect(additional(t.get(keyOfText('p.test')))).toEqual(additional(whole.get(keyOfText('p.test'))));
  });

  it('has no name whose records are all left out (malformed names in RDATA, OPT), as a whole build', () => {
    const records = [
      SOA,
      ns('bad.p.test', [5, 1, 2]),
      { name: 'opt.x.p.test', type: 41, ttl: 0, rdata: new Uint8Array(0) },
      ns('mixed.p.test', [5, 1, 2]),
      A('mixed.p.test', 1),
      ns('mixed.p.test', [64, 1]),
      A('after.p.test', 2),
    ];
    const t = table(records);
    const whole = buildWholeSnapshot({ id: 1, domain: 'p.test', serial: 1, records });
    expect([...t.keys()].sort()).toEqual([...whole.nodes.keys()].sort());
    expect(t.size).toBe(whole.nodes.size);
    for (const name of ['bad', 'opt.x', 'x']) expect(t.has(keyOfText(`${name}.p.test`)), name).toBe(false);
    expect(t.get(keyOfText('mixed.p.test'))!.rrsets.map((rs) => rs.type)).toEqual([1]);
    expect(t.index.skipped).toBe(whole.skipped);
  });

  it("tells each name's types and whether it is a cut as its node would, without making it", () => {
    const NS_X = [2, 0x6e, 0x73, 1, 0x78, 0];
    const records = [
      SOA,
      ns('p.test', NS_X),
      A('www.p.test', 1),
      { name: 'www.p.test', type: 16, ttl: 60, rdata: Uint8Array.of(1, 0x74) },
      A('www.p.test', 2),
      ns('cut.p.test', NS_X),
      { name: 'cut.p.test', type: 43, ttl: 60, rdata: Uint8Array.of(0, 1, 13, 2, 9) },
      A('glue.cut.p.test', 3),
      ns('bad.p.test', [5, 1, 2]),
      ns('mixed.p.test', [5, 1, 2]),
      A('mixed.p.test', 4),
      A('a.ent.p.test', 5),
    ];
    const t = table(records);
    const whole = buildWholeSnapshot({ id: 1, domain: 'p.test', serial: 1, records }).nodes;
    const made = t.made;
    for (const key of whole.keys()) {
      const node = whole.get(key)!;
      expect(t.typesOf(key), key).toEqual(node.rrsets.map((rs) => rs.type));
      expect(t.isDelegation(key), key).toBe(node.delegation);
    }
    expect(t.typesOf(keyOfText('bad.p.test'))).toBeUndefined();
    expect(t.isDelegation(keyOfText('nope.p.test'))).toBe(false);
    expect(t.made).toBe(made);
    // A patch's nodes and removals answer for themselves.
    t.set(keyOfText('www.p.test'), whole.get(keyOfText('cut.p.test'))!);
    t.delete(keyOfText('cut.p.test'));
    expect(t.typesOf(keyOfText('www.p.test'))).toEqual([2, 43]);
    expect(t.isDelegation(keyOfText('www.p.test'))).toBe(true);
    expect(t.typesOf(keyOfText('cut.p.test'))).toBeUndefined();
    expect(t.isDelegation(keyOfText('cut.p.test'))).toBe(false);
  });

  it('gives the apex of the root zone a name of no labels', () => {
    const rootSoa = { ...SOA, name: '' };
    const t = new PackedNodeTable(packRecords([rootSoa, A('a', 1)]), wireNameFromText(''), []);
    expect(t.get('')!.keys).toEqual([]);
    expect(t.get(keyOfText('a'))!.keys).toEqual([keyOfText('a')]);
  });

  it('lays a patch over the packed names: set, delete, size, iteration', () => {
    const t = table([SOA, A('a.p.test', 1), A('b.p.test', 2)]);
    expect(t.size).toBe(3);
    const a = keyOfText('a.p.test');
    const n = keyOfText('n.p.test');
    const fresh = new ZoneNode(wireNameFromText('n.p.test'), [], false);
    t.set(n, fresh);
    expect(t.size).toBe(4);
    expect(t.get(n)).toBe(fresh);
    expect(t.mayHave(nameKeyHash(n))).toBe(true);
    expect(t.delete(a)).toBe(true);
    expect(t.delete(a)).toBe(false);
    expect(t.has(a)).toBe(false);
    expect(t.get(a)).toBeUndefined();
    expect(t.size).toBe(3);
    expect(new Set(t.keys())).toEqual(new Set([keyOfText('p.test'), keyOfText('b.p.test'), n]));
    expect([...t.entries()].map(([k]) => k).sort()).toEqual([...t.keys()].sort());
    const again = new ZoneNode(wireNameFromText('a.p.test'), [], false);
    t.set(a, again);
    expect(t.get(a)).toBe(again);
    expect(t.size).toBe(4);
    expect(t.delete(n)).toBe(true);
    expect(t.size).toBe(3);
  });
});

describe('a large zone given as records', () => {
  it('is built packed at PACKED_ZONE_RECORDS records, with the nodes of a whole build', () => {
    const records = [SOA];
    for (let i = 1; records.length < PACKED_ZONE_RECORDS; i++) {
      records.push(A(`h${i}.s${i % 7}.p.test`, i & 0xff, 60 + (i % 5)));
      if (i % 11 === 0)
        records.push({
          name: `h${i}.s${i % 7}.p.test`,
          type: 15,
          ttl: 60,
          rdata: Uint8Array.of(0, 10, 2, 0x68, 0x31, 1, 0x70, 4, 0x74, 0x65, 0x73, 0x74, 0),
        });
    }
    const zone = { id: 1, domain: 'p.test', serial: 1, records };
    const packed = buildZoneSnapshot(zone);
    expect(packed.nodes).toBeInstanceOf(PackedNodeTable);
    expect(buildZoneSnapshot({ ...zone, records: records.slice(0, -1) }).nodes).not.toBeInstanceOf(
      PackedNodeTable,
    );
    const whole = buildWholeSnapshot(zone);
    expect(packed.nodes.size).toBe(whole.nodes.size);
    let compared = 0;
    for (const [key, node] of whole.nodes) {
      if (compared++ % 97 !== 0) continue;
      const got = packed.nodes.get(key)!;
      expect(got.rrsets.map((rs) => [rs.type, rs.ttl, rs.rdatas, rs.additional.length])).toEqual(
        node.rrsets.map((rs) => [rs.type, rs.ttl, rs.rdatas, rs.additional.length]),
      );
    }
  });
});
