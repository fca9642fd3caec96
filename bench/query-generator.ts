/**
 * Generates a dnsperf query file ("name TYPE" per line) against a generated bench zone, with a
 * realistic mix: mostly A on existing hosts, then AAAA, MX, TXT, CNAME'd names, wildcard hits,
 * NXDOMAIN, referrals and NODATA.
 */
import type { BenchZone } from './zone-generator.ts';
import { createSeededRandom } from '../src/testing/seeded-random.ts';

export const DEFAULT_BENCH_QUERIES = 100_000;

/** Cumulative shares (percent) of each query kind. */
const MIX: Array<[number, string]> = [
  [55, 'a'],
  [65, 'aaaa'],
  [70, 'mx'],
  [74, 'txt'],
  [82, 'alias'],
  [88, 'wild'],
  [94, 'nx'],
  [97, 'referral'],
  [100, 'nodata'],
];

/** `omit`: kinds left out (their share of `count` is not replaced), e.g. `['nx']`. */
export function generateQueries(
  zone: BenchZone,
  count = DEFAULT_BENCH_QUERIES,
  seed = 2,
  omit: readonly string[] = [],
): string {
  const rnd = createSeededRandom(seed);
  const o = zone.origin;
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const roll = rnd.int(100);
    const kind = MIX.find(([upto]) => roll < upto)![1];
    if (omit.includes(kind)) continue;
    switch (kind) {
      case 'a':
        lines.push(`${rnd.pick(zone.hosts)}.${o} A`);
        break;
      case 'aaaa':
        lines.push(`${rnd.pick(zone.hosts)}.${o} AAAA`);
        break;
      case 'mx':
        lines.push(`${rnd.int(2) ? o : `${rnd.pick(zone.hosts)}.${o}`} MX`);
        break;
      case 'txt':
        lines.push(`${rnd.pick(zone.hosts)}.${o} TXT`);
        break;
      case 'alias':
        lines.push(`${rnd.pick(zone.aliases)}.${o} A`);
        break;
      case 'wild':
        lines.push(`w${rnd.int(1_000_000)}.wild.${o} A`);
        break;
      case 'nx':
        lines.push(`nx${rnd.int(1_000_000)}.${o} A`);
        break;
      case 'referral':
        lines.push(`www.${rnd.pick(zone.delegations)}.${o} A`);
        break;
      default:
        lines.push(`${rnd.pick(zone.hosts)}.${o} SRV`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * An NXDOMAIN flood of unique names (a random-subdomain attack): `count` names under the origin
 * that exist nowhere, each once, so that no answer repeats within a pass over the file.
 */
export function generateNxFlood(origin: string, count = 2_000_000, seed = 3): string {
  const rnd = createSeededRandom(seed);
  const lines: string[] = new Array<string>(count);
  for (let i = 0; i < count; i++) lines[i] = `x${i.toString(36)}${rnd.int(1 << 30).toString(36)}.${origin} A`;
  return `${lines.join('\n')}\n`;
}
