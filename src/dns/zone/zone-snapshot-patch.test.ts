import { describe, expect, it } from 'vitest';
import { buildQuery } from '../../../test/conformance/query-wire-builder.ts';
import { createSeededRandom } from '../../testing/seeded-random.ts';
import { createMessageHandler, createOutcome, type ClientInfo } from '../server/handle-message.ts';
import { zoneDataFromText } from '../zonefile/zone-data-from-text.ts';
import type { ZoneData } from './zone-data.ts';
import type { ZoneSnapshot } from './zone-snapshot.ts';
import { buildZoneSnapshot } from './zone-snapshot.ts';
import { patchZoneSnapshot } from './zone-snapshot-patch.ts';
import { ZoneStore } from './zone-store.ts';

const APEX = 'patch.test';
/** Owners (relative): deep names, wildcards, a delegation with glue below it, names sharing parents. */
const OWNERS = [
  '@',
  'a',
  'b',
  'c.a',
  'd.c.a',
  'e.b',
  '*.w',
  'x.w',
  'sub',
  'ns1.sub',
  'deep.x.sub',
  'm',
  '*',
  'f.g.h',
];
const TARGETS = ['a', 'c.a', 'm', 'ns1.sub', 'x.w', 'f.g.h', 'nowhere'];
const QTYPES = [1, 2, 5, 15, 16, 28, 33, 255];

function fqdn(owner: string): string {
  return owner === '@' ? APEX : `${owner}.${APEX}`;
}

function randomLine(rnd: ReturnType<typeof createSeededRandom>): { owner: string; line: string } {
  const owner = rnd.pick(OWNERS);
  const target = `${fqdn(rnd.pick(TARGETS))}.`;
  const kind = rnd.int(8);
  const rdata = [
    `A 192.0.2.${rnd.int(8)}`,
    `AAAA 2001:db8::${rnd.int(8)}`,
    `TXT "t${rnd.int(4)}"`,
    `MX ${rnd.int(3) * 10} ${target}`,
    `SRV 0 0 ${rnd.int(3) + 80} ${target}`,
    `CNAME ${target}`,
    // A delegation only where one is meant to be (NS at the apex is built by the platform).
    owner === 'sub' || owner === 'e.b'
      ? `NS ${fqdn(rnd.pick(['ns1.sub', 'm']))}.`
      : `A 198.51.100.${rnd.int(4)}`,
    `A 203.0.113.${rnd.int(4)}`,
  ][kind]!;
  return { owner, line: `${owner === '@' ? '@' : owner} 300 IN ${rdata}` };
}

function zoneOf(serial: number, lines: readonly string[]): ZoneData {
  const text = [
    `$ORIGIN ${APEX}.`,
    `@ 3600 IN SOA ns1 hostmaster ${serial} 7200 3600 1209600 300`,
    '@ 3600 IN NS ns1.sub',
    ...lines,
    '',
  ].join('\n');
  return zoneDataFromText({ id: 1, domain: APEX, text });
}

/** Everything a snapshot answers from, as plain data (additional data by owner key and type). */
function shape(s: ZoneSnapshot): unknown {
  const nodes = [...s.nodes.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, node]) => ({
      key,
      delegation: node.delegation,
      rrsets: node.rrsets.map((rs) => ({
        type: rs.type,
        ttl: rs.ttl,
        rdatas: rs.rdatas.map((r) => Buffer.from(r).toString('hex')),
        additional: rs.additional.map((e) => `${e.owner.keys[0]}|${e.rrset.type}|${e.glue}`),
      })),
    }));
  return {
    serial: s.serial,
    hasWildcards: s.hasWildcards,
    negativeTtl: s.negativeSoa?.ttl,
    soa: s.soa?.rdatas.map((r) => Buffer.from(r).toString('hex')),
    nodes,
  };
}

describe('patchZoneSnapshot', () => {
  it('answers as a full build after each of 400 random changes (names, ENTs, glue, wildcards)', () => {
    for (const seed of [1, 2, 3]) {
      const rnd = createSeededRandom(seed);
      let lines: { owner: string; line: string }[] = [];
      let serial = 1;
      const patched = new ZoneStore();
      const full = new ZoneStore();
      patched.upsert(zoneOf(serial, []));
      const client: ClientInfo = { transport: 'udp', address: '192.0.2.1', port: 53, family: 4 };
      const askP = createMessageHandler(patched);
      const askF = createMessageHandler(full);
      const out = createOutcome();
      for (let step = 0; step < 400; step++) {
        const touched = new Set<string>();
        for (let k = rnd.int(3) + 1; k > 0; k--) {
          if (lines.length > 0 && rnd.next() < 0.45) {
            const i = rnd.int(lines.length);
            touched.add(lines[i]!.owner);
            lines = lines.filter((_, j) => j !== i);
          } else {
            const add = randomLine(rnd);
            if (lines.some((l) => l.line === add.line)) continue;
            touched.add(add.owner);
            lines.push(add);
          }
        }
        const zone = zoneOf(
          ++serial,
          lines.map((l) => l.line),
        );
        patched.patch(zone, [...touched].map(fqdn));
        full.upsert(zone);
        const context = `seed ${seed} step ${step}`;
        expect(shape(patched.get(1)!), context).toEqual(shape(full.get(1)!));
        if (step % 20 !== 0) continue;
        for (const owner of [...OWNERS, 'zz', 'q.c.a', 'y.w', 'g.h', 'h']) {
          for (const qtype of QTYPES) {
            const q = buildQuery({ name: fqdn(owner), qtype });
            const p = askP(q, client, out);
            const f = askF(q, client, out);
            expect(p?.toString('hex'), `${context} ${owner} ${qtype}`).toBe(f?.toString('hex'));
          }
        }
      }
    }
  });

  it('drops a name left without records and the empty parents above it, keeps a parent with children', () => {
    const before = buildZoneSnapshot(
      zoneOf(1, ['x.y.z 300 IN A 192.0.2.1', 'w.z 300 IN A 192.0.2.2', 'm 300 IN MX 10 x.y.z.patch.test.']),
    );
    expect(before.nodes.get('\x01m\x05patch\x04test')!.rrsets[0]!.additional).toHaveLength(1);
    const after = patchZoneSnapshot(
      before,
      zoneOf(2, ['w.z 300 IN A 192.0.2.2', 'm 300 IN MX 10 x.y.z.patch.test.']),
      [fqdn('x.y.z')],
    );
    // Keys as dotted text: each label-length byte becomes a dot.
    const dotted = (k: string): string => [...k].map((c) => (c.charCodeAt(0) < 64 ? '.' : c)).join('');
    const keys = [...after.nodes.keys()].map(dotted).sort();
    expect(keys).toEqual(['.m.patch.test', '.patch.test', '.w.z.patch.test', '.z.patch.test']);
    expect(after.nodes.get('\x01m\x05patch\x04test')!.rrsets[0]!.additional).toEqual([]);
    expect(after.serial).toBe(2);
  });
});
