/**
 * Test helper: random sequences of record changes to one small zone, each step the zone's new
 * ZoneData and the owner names it touched — the input of ZoneStore.patch — for tests that compare
 * a patched snapshot (and what follows it) with a full build. Deterministic per seed.
 */
import { zoneDataFromText } from '../dns/index.ts';
import type { ZoneData } from '../dns/index.ts';
import { createSeededRandom, type SeededRandom } from './seeded-random.ts';

export const CHANGE_APEX = 'patch.test';
/** Owners (relative): deep names, wildcards, a delegation with glue below it, names sharing parents. */
export const CHANGE_OWNERS = [
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
/** Names worth asking about besides the owners: below, between and beside them. */
export const CHANGE_PROBES = [...CHANGE_OWNERS, 'zz', 'q.c.a', 'y.w', 'g.h', 'h'];
const TARGETS = ['a', 'c.a', 'm', 'ns1.sub', 'x.w', 'f.g.h', 'nowhere'];

export function changeFqdn(owner: string): string {
  return owner === '@' ? CHANGE_APEX : `${owner}.${CHANGE_APEX}`;
}

function randomLine(rnd: SeededRandom): { owner: string; line: string } {
  const owner = rnd.pick(CHANGE_OWNERS);
  const target = `${changeFqdn(rnd.pick(TARGETS))}.`;
  const rdata = [
    `A 192.0.2.${rnd.int(8)}`,
    `AAAA 2001:db8::${rnd.int(8)}`,
    `TXT "t${rnd.int(4)}"`,
    `MX ${rnd.int(3) * 10} ${target}`,
    `SRV 0 0 ${rnd.int(3) + 80} ${target}`,
    `CNAME ${target}`,
    // A delegation only where one is meant to be (NS at the apex is built by the platform).
    owner === 'sub' || owner === 'e.b'
      ? `NS ${changeFqdn(rnd.pick(['ns1.sub', 'm']))}.`
      : `A 198.51.100.${rnd.int(4)}`,
    `A 203.0.113.${rnd.int(4)}`,
  ][rnd.int(8)]!;
  return { owner, line: `${owner} 300 IN ${rdata}` };
}

/** The zone with the given record lines (relative owners), its SOA at `serial`. */
export function changeZone(
  serial: number,
  lines: readonly string[],
  extra: Partial<ZoneData> = {},
): ZoneData {
  const text = [
    `$ORIGIN ${CHANGE_APEX}.`,
    `@ 3600 IN SOA ns1 hostmaster ${serial} 7200 3600 1209600 300`,
    '@ 3600 IN NS ns1.sub',
    ...lines,
    '',
  ].join('\n');
  return { ...zoneDataFromText({ id: 1, domain: CHANGE_APEX, text }), ...extra };
}

export interface ZoneChangeStep {
  readonly step: number;
  readonly zone: ZoneData;
  /** Owner names (stored form) whose records the step added or removed. */
  readonly names: string[];
}

/** `steps` random changes of 1–3 records each, starting from an empty zone at serial 1. */
export function* randomZoneChanges(
  seed: number,
  steps: number,
  extra: Partial<ZoneData> = {},
): Generator<ZoneChangeStep> {
  const rnd = createSeededRandom(seed);
  let lines: { owner: string; line: string }[] = [];
  for (let step = 0; step < steps; step++) {
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
    const zone = changeZone(
      step + 2,
      lines.map((l) => l.line),
      extra,
    );
    yield { step, zone, names: [...touched].map(changeFqdn) };
  }
}
