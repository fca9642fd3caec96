import { describe, expect, it } from 'vitest';
import { buildQuery } from '../../../test/conformance/query-wire-builder.ts';
import {
  CHANGE_PROBES,
  changeFqdn,
  changeZone,
  randomZoneChanges,
} from '../../testing/zone-change-fixture.ts';
import { createMessageHandler, createOutcome, type ClientInfo } from '../server/handle-message.ts';
import type { ZoneSnapshot } from './zone-snapshot.ts';
import { buildZoneSnapshot } from './zone-snapshot-builder.ts';
import { patchZoneSnapshot } from './zone-snapshot-patch.ts';
import { ZoneStore } from './zone-store.ts';
import { PackedNodeTable, packedCache } from './packed-node-table.ts';
import { packedZone } from './packed-records.ts';

const QTYPES = [1, 2, 5, 15, 16, 28, 33, 255];

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
      const patched = new ZoneStore();
      // Given the apex and the changed names' records only, as a DNS node's ZoneSync gives them.
      const partial = new ZoneStore();
      const full = new ZoneStore();
      patched.upsert(changeZone(1, []));
      partial.upsert(changeZone(1, []));
      const client: ClientInfo = { transport: 'udp', address: '192.0.2.1', port: 53, family: 4 };
      const askP = createMessageHandler(patched);
      const askF = createMessageHandler(full);
      const out = createOutcome();
      for (const { step, zone, names } of randomZoneChanges(seed, 400)) {
        expect(patched.patch(zone, names)).toBe(true);
        const at = new Set([...names, zone.domain]);
        expect(partial.patch({ ...zone, records: zone.records.filter((r) => at.has(r.name)) }, names)).toBe(
          true,
        );
        full.upsert(zone);
        const context = `seed ${seed} step ${step}`;
        expect(shape(patched.get(1)!), context).toEqual(shape(full.get(1)!));
        expect(shape(partial.get(1)!), context).toEqual(shape(full.get(1)!));
        if (step % 20 !== 0) continue;
        for (const owner of CHANGE_PROBES) {
          for (const qtype of QTYPES) {
            const q = buildQuery({ name: changeFqdn(owner), qtype });
            const p = askP(q, client, out);
            const f = askF(q, client, out);
            expect(p?.toString('hex'), `${context} ${owner} ${qtype}`).toBe(f?.toString('hex'));
          }
        }
      }
    }
  });

  it.each([32_768, 3])(
    'patches a packed zone as a full build (400 random changes from a packed start, cache of %i)',
    (generation) => {
      const saved = packedCache.generation;
      packedCache.generation = generation;
      try {
        const patched = new ZoneStore();
        const full = new ZoneStore();
        const client: ClientInfo = { transport: 'udp', address: '192.0.2.1', port: 53, family: 4 };
        const askP = createMessageHandler(patched);
        const askF = createMessageHandler(full);
        const out = createOutcome();
        let packedSteps = 0;
        for (const { step, zone, names } of randomZoneChanges(4, 400)) {
          full.upsert(zone);
          if (step === 60) {
            // Served packed from here on, as a node cold-started from its snapshot file.
            patched.upsert(packedZone(zone));
          } else if (step > 60) {
            expect(patched.patch(zone, names)).toBe(true);
            packedSteps++;
          } else continue;
          const context = `step ${step}`;
          expect(patched.get(1)!.nodes).toBeInstanceOf(PackedNodeTable);
          expect(shape(patched.get(1)!), context).toEqual(shape(full.get(1)!));
          if (step % 10 !== 0) continue;
          for (const owner of CHANGE_PROBES) {
            for (const qtype of QTYPES) {
              const q = buildQuery({ name: changeFqdn(owner), qtype });
              const p = askP(q, client, out);
              const f = askF(q, client, out);
              expect(p?.toString('hex'), `${context} ${owner} ${qtype}`).toBe(f?.toString('hex'));
            }
          }
        }
        expect(packedSteps).toBe(339);
      } finally {
        packedCache.generation = saved;
      }
    },
  );

  it('drops a name left without records and the empty parents above it, keeps a parent with children', () => {
    const before = buildZoneSnapshot(
      changeZone(1, [
        'x.y.z 300 IN A 192.0.2.1',
        'w.z 300 IN A 192.0.2.2',
        'm 300 IN MX 10 x.y.z.patch.test.',
      ]),
    );
    expect(before.nodes.get('\x01m\x05patch\x04test')!.rrsets[0]!.additional).toHaveLength(1);
    const after = patchZoneSnapshot(
      before,
      changeZone(2, ['w.z 300 IN A 192.0.2.2', 'm 300 IN MX 10 x.y.z.patch.test.']),
      [changeFqdn('x.y.z')],
    );
    // Keys as dotted text: each label-length byte becomes a dot.
    const dotted = (k: string): string => [...k].map((c) => (c.charCodeAt(0) < 64 ? '.' : c)).join('');
    const keys = [...after.nodes.keys()].map(dotted).sort();
    expect(keys).toEqual(['.m.patch.test', '.patch.test', '.w.z.patch.test', '.z.patch.test']);
    expect(after.nodes.get('\x01m\x05patch\x04test')!.rrsets[0]!.additional).toEqual([]);
    expect(after.serial).toBe(2);
  });

  it('leaves the served zone as it was when it cannot patch: not served, another apex, a bad name', () => {
    const store = new ZoneStore();
    const zone = changeZone(1, ['a 300 IN A 192.0.2.1']);
    expect(store.patch(zone, [changeFqdn('a')])).toBe(false);
    expect(store.get(1)).toBeUndefined();
    store.upsert(zone);
    const served = store.get(1)!;
    expect(store.patch({ ...changeZone(2, []), domain: 'other.test' }, [changeFqdn('a')])).toBe(false);
    expect(store.patch(changeZone(2, []), ['bad..name.patch.test'])).toBe(false);
    expect(store.get(1)).toBe(served);
    expect(shape(served)).toEqual(shape(buildZoneSnapshot(zone)));
  });
});
