import dnsPacket from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { buildQuery } from '../../../test/conformance/query-wire-builder.ts';
import {
  CHANGE_PROBES,
  changeFqdn,
  changeZone,
  randomZoneChanges,
} from '../../testing/zone-change-fixture.ts';
import { createMessageHandler, createOutcome, type ClientInfo } from '../server/handle-message.ts';
import { keyOfText } from '../wire/wire-name.ts';
import { PackedNodeTable, packedCache } from '../zone/packed-node-table.ts';
import { packedZone } from '../zone/packed-records.ts';
import { buildZoneSnapshot } from '../zone/zone-snapshot-builder.ts';
import { ZoneStore } from '../zone/zone-store.ts';
import type { ZoneDnssec } from './dnssec-config.ts';
import { generateDnssecKey } from './dnssec-key.ts';
import { signingFor } from './signing-registry.ts';
import { createZoneSigning, type ZoneSigning } from './zone-signing.ts';

const ksk = generateDnssecKey(13, 'ksk');
const zsk = generateDnssecKey(13, 'zsk');
const material: ZoneDnssec = {
  algorithm: 13,
  ksk: { algorithm: 13, keyTag: ksk.keyTag, privateKeyPkcs8: ksk.privateKeyPkcs8 },
  zsk: { algorithm: 13, keyTag: zsk.keyTag, privateKeyPkcs8: zsk.privateKeyPkcs8 },
  nsecTtl: 300,
};

/** What denial and signing decisions read, as plain data. */
function view(signing: ZoneSigning, keys: readonly string[]): unknown {
  const names = (signing.denial.names as unknown as { list(): readonly string[] }).list();
  return {
    names,
    exists: keys.filter((k) => signing.exists(k)),
    types: names.map((k) => signing.denial.typesAt(k)),
  };
}

/** A DO answer with each RRSIG reduced to what it covers (signatures are randomised). */
function signedAnswer(wire: Buffer | null): string[] {
  const p = dnsPacket.decode(wire!) as ReturnType<typeof dnsPacket.decode> & { rcode?: string };
  const rr = (r: { name: string; type: string; data?: unknown }): string =>
    `${r.name} ${r.type} ${r.type === 'RRSIG' ? (r.data as { typeCovered: string }).typeCovered : JSON.stringify(r.data)}`;
  return [
    `rcode ${p.rcode}`,
    ...(p.answers ?? []).map(rr),
    ...(p.authorities ?? []).map(rr),
    ...(p.additionals ?? []).filter((r) => r.type !== 'OPT').map(rr),
  ];
}

describe('signing a patched snapshot', () => {
  it('follows 300 random changes as a whole build would, carried over where no cut moved', () => {
    const keys = CHANGE_PROBES.map((o) => keyOfText(changeFqdn(o)));
    const client: ClientInfo = { transport: 'udp', address: '192.0.2.1', port: 53, family: 4 };
    const out = createOutcome();
    let carried = 0;
    for (const seed of [4, 5]) {
      const patched = new ZoneStore();
      patched.upsert(changeZone(1, [], { dnssec: material }));
      let previous = signingFor(patched.get(1)!)!;
      const askP = createMessageHandler(patched);
      for (const { step, zone, names } of randomZoneChanges(seed, 300, { dnssec: material })) {
        patched.patch(zone, names);
        // Not every snapshot is asked with DO: changes accumulate between two signings.
        if (step % 3 !== 0) continue;
        const signing = signingFor(patched.get(1)!)!;
        if (signing.signer === previous.signer) carried++;
        previous = signing;
        const fullSnapshot = buildZoneSnapshot(zone);
        const whole = createZoneSigning(fullSnapshot, material);
        const context = `seed ${seed} step ${step}`;
        expect(view(signing, keys), context).toEqual(view(whole, keys));
        for (const node of patched.get(1)!.nodes.values()) {
          for (const rs of node.rrsets) expect(signing.ownerOf(rs), context).toBe(node.name.keys[0]);
        }
        if (step % 30 !== 0) continue;
        const full = new ZoneStore();
        full.upsert(zone);
        const askF = createMessageHandler(full);
        for (const owner of CHANGE_PROBES) {
          for (const qtype of [1, 16, 43]) {
            const q = buildQuery({ name: changeFqdn(owner), qtype, edns: { payload: 4096, do: true } });
            expect(signedAnswer(askP(q, client, out)), `${context} ${owner} ${qtype}`).toEqual(
              signedAnswer(askF(q, client, out)),
            );
          }
        }
      }
    }
    // Most signings followed the patches; the rest were rebuilt because a delegation came or went.
    expect(carried).toBeGreaterThan(100);
  });

  it.each([
    ['nsec3', 32_768],
    ['online', 3],
  ] as const)(
    'follows 150 random changes from a packed start as a whole build would (%s denial, cache of %i)',
    (denial, generation) => {
      const saved = packedCache.generation;
      packedCache.generation = generation;
      const dnssec: ZoneDnssec = { ...material, denial };
      const client: ClientInfo = { transport: 'udp', address: '192.0.2.1', port: 53, family: 4 };
      const out = createOutcome();
      try {
        const patched = new ZoneStore();
        const askP = createMessageHandler(patched);
        let compared = 0;
        const proofs = new Set<string>();
        for (const { step, zone, names } of randomZoneChanges(6, 150, { dnssec })) {
          if (step < 30) continue;
          if (step === 30) {
            // Served packed from here on, as a signed zone cold-started from the snapshot file.
            patched.upsert(packedZone(zone));
          } else expect(patched.patch(zone, names)).toBe(true);
          expect(patched.get(1)!.nodes).toBeInstanceOf(PackedNodeTable);
          if (step % 5 !== 0) continue;
          const full = new ZoneStore();
          full.upsert(zone);
          const askF = createMessageHandler(full);
          const context = `step ${step}`;
          for (const owner of CHANGE_PROBES) {
            for (const qtype of [1, 16, 28, 43]) {
              const q = buildQuery({ name: changeFqdn(owner), qtype, edns: { payload: 4096, do: true } });
              const answer = signedAnswer(askP(q, client, out));
              expect(answer, `${context} ${owner} ${qtype}`).toEqual(signedAnswer(askF(q, client, out)));
              compared++;
              if (answer.some((rr) => / (NSEC|NSEC3) /.test(rr)))
                proofs.add(answer.find((rr) => / NSEC3? /.test(rr))!.split(' ')[1]!);
            }
          }
        }
        expect(compared).toBeGreaterThan(1000);
        // The denial asked for is the one served.
        expect([...proofs]).toEqual([denial === 'nsec3' ? 'NSEC3' : 'NSEC']);
      } finally {
        packedCache.generation = saved;
      }
    },
  );
});
