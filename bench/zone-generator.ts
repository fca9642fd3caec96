/**
 * Generates a benchmark zone (RFC 1035 §5 text): `hostCount` names with A records, and in fixed
 * proportions AAAA, MX, TXT, CNAME aliases, a wildcard and delegations with glue. Deterministic
 * for a given seed, so ours and Knot serve byte-identical data.
 * CLI: `tsx bench/zone-generator.ts <origin> <out-file> [hostCount]`.
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { createSeededRandom } from '../src/testing/seeded-random.ts';

export const DEFAULT_BENCH_HOSTS = 10_000;
/** One name in ALIAS_EVERY is a CNAME, one in DELEGATION_EVERY a delegation. */
const ALIAS_EVERY = 10;
const DELEGATION_EVERY = 50;

export interface BenchZoneOptions {
  origin: string;
  hostCount?: number;
  seed?: number;
}

export interface BenchZone {
  origin: string;
  text: string;
  /** Names by kind, for the query generator. */
  hosts: string[];
  aliases: string[];
  delegations: string[];
}

/** The last groups of host i's IPv6 address: one group below 65,536 hosts, two above. */
function v6Tail(i: number): string {
  const low = (i & 0xffff).toString(16);
  return i > 0xffff ? `${(i >>> 16).toString(16)}:${low}` : low;
}

export function generateZone(opts: BenchZoneOptions): BenchZone {
  const origin = opts.origin.replace(/\.$/, '');
  const n = opts.hostCount ?? DEFAULT_BENCH_HOSTS;
  const rnd = createSeededRandom(opts.seed ?? 1);
  const lines = [
    `$ORIGIN ${origin}.`,
    '$TTL 3600',
    `@ IN SOA ns1.${origin}. hostmaster.${origin}. 1 7200 3600 1209600 300`,
    '@ NS ns1',
    '@ NS ns2',
    'ns1 A 192.0.2.1',
    'ns2 A 192.0.2.2',
    '@ A 192.0.2.10',
    '@ MX 10 mx1',
    'mx1 A 192.0.2.25',
    '@ TXT "v=spf1 mx -all"',
    '*.wild A 192.0.2.99',
    '*.wild AAAA 2001:db8::99',
  ];
  const hosts: string[] = [];
  const aliases: string[] = [];
  const delegations: string[] = [];
  for (let i = 0; i < n; i++) {
    if (i % DELEGATION_EVERY === DELEGATION_EVERY - 1) {
      const d = `d${i}`;
      lines.push(
        `${d} NS ns.${d}`,
        `${d} NS ns2.example.net.`,
        `ns.${d} A 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      );
      delegations.push(d);
      continue;
    }
    if (i % ALIAS_EVERY === ALIAS_EVERY - 1 && hosts.length > 0) {
      const a = `alias${i}`;
      lines.push(`${a} CNAME ${rnd.pick(hosts)}`);
      aliases.push(a);
      continue;
    }
    const h = `host${i}`;
    hosts.push(h);
    lines.push(`${h} A 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    if (rnd.int(3) === 0) lines.push(`${h} AAAA 2001:db8::${v6Tail(i)}`);
    if (rnd.int(10) === 0) lines.push(`${h} MX 10 mx1`);
    if (rnd.int(10) === 0) lines.push(`${h} TXT "id=${i}" "${'t'.repeat(rnd.int(60))}"`);
  }
  return { origin, text: `${lines.join('\n')}\n`, hosts, aliases, delegations };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [origin, out, count] = process.argv.slice(2);
  if (!origin || !out) throw new Error('usage: zone-generator.ts <origin> <out-file> [hostCount]');
  writeFileSync(out, generateZone({ origin, hostCount: count ? Number(count) : undefined }).text);
}
