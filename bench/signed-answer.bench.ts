/**
 * Micro-benchmark of signed answers (DNSSEC online signing, RFC 4035 §3.1) through the full
 * handleMessage over the generated 10,000-name bench zone signed in process (ECDSA P-256):
 * static A without DO (the unsigned baseline), the same with DO (warm signature cache), a signed
 * NODATA and NXDOMAIN for a repeated name (warm), and NODATA (wildcard, below *.wild) and NXDOMAIN
 * for random names (cold: each needs a fresh NSEC signature, reported separately). Cases run in interleaved rounds; the median
 * round is reported. Results are ns per query; the ratio is unsigned ns ÷ signed ns (target ≥ 0.8).
 * `--only-positive` runs just the two A cases (no cold-case garbage in the same process).
 * `npx tsx bench/signed-answer.bench.ts [--rounds N] [--json] [--only-positive]`.
 */
import { Bench } from 'tinybench';
import { ZoneStore, createMessageHandler, createOutcome } from '../src/dns/index.ts';
import type { ClientInfo } from '../src/dns/index.ts';
import { buildQuery } from '../test/conformance/query-wire-builder.ts';
import { median } from './bench-stats.ts';
import { withSigning } from './signed-zone.ts';
import { ORIGIN, buildBenchZoneData } from './handle-message.bench.ts';

/** Queries answered per tinybench iteration (warm cases). */
const BATCH = 200;
/** Cold cases sign once per query: fewer per iteration. */
const COLD_BATCH = 20;
const TIME_MS = 300;
const TYPE_A = 1;
const TYPE_TXT = 16;

interface Case {
  name: string;
  batch: number;
  /** Query wire for iteration i. */
  wire: (i: number) => Buffer;
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

async function main(): Promise<void> {
  const rounds = arg('--rounds', 5);
  const { data, host } = buildBenchZoneData();
  const store = new ZoneStore();
  store.replaceAll([withSigning(data)]);
  const handle = createMessageHandler(store);
  const out = createOutcome();
  const client: ClientInfo = { transport: 'udp', address: '192.0.2.1', port: 5353, family: 4 };
  const q = (name: string, qtype: number, dnssecOk: boolean): Buffer =>
    buildQuery({ name: `${name}.${ORIGIN}`, qtype, edns: { payload: 1232, do: dnssecOk } });
  const fixed = (w: Buffer) => () => w;
  // Random names: a pool large enough that no name repeats within a run (each is a cache miss).
  let serial = 0;
  const fresh = (qtype: number, parent: string | null) => () => {
    const label = `r${(serial++).toString(36)}x`;
    return q(parent === null ? label : `${label}.${parent}`, qtype, true);
  };
  const allCases: Case[] = [
    { name: 'A, no DO (unsigned)', batch: BATCH, wire: fixed(q(host, TYPE_A, false)) },
    { name: 'A, DO (warm)', batch: BATCH, wire: fixed(q(host, TYPE_A, true)) },
    { name: 'NODATA, DO (warm)', batch: BATCH, wire: fixed(q(host, TYPE_TXT, true)) },
    { name: 'NXDOMAIN, DO (warm)', batch: BATCH, wire: fixed(q('nothere', TYPE_A, true)) },
    { name: 'NODATA, no DO', batch: BATCH, wire: fixed(q(host, TYPE_TXT, false)) },
    { name: 'NXDOMAIN, no DO', batch: BATCH, wire: fixed(q('nothere', TYPE_A, false)) },
    // Random names below the wildcard: a wildcard NODATA, whose covering NSEC is new per name.
    { name: 'NODATA, DO (cold, random)', batch: COLD_BATCH, wire: fresh(TYPE_TXT, 'wild') },
    { name: 'NXDOMAIN, DO (cold, random)', batch: COLD_BATCH, wire: fresh(TYPE_A, null) },
  ];
  const cases = process.argv.includes('--only-positive') ? allCases.slice(0, 2) : allCases;
  for (const c of cases) {
    const res = handle(c.wire(0), client, out);
    if (res === null) throw new Error(`${c.name}: no response`);
    console.error(`${c.name.padEnd(28)} rcode=${out.rcode} kind=${out.kind} bytes=${res.length}`);
  }
  let sink = 0;
  const perRound = new Map<string, number[]>();
  for (let r = 0; r < rounds; r++) {
    const bench = new Bench({ time: TIME_MS, warmup: true });
    // Interleave: rotate the case order each round.
    const order = cases.map((_, i) => cases[(i + r) % cases.length]!);
    for (const c of order) {
      bench.add(c.name, () => {
        if (c.batch === BATCH) {
          const w = c.wire(0);
          for (let i = 0; i < BATCH; i++) sink += handle(w, client, out)!.length;
        } else {
          for (let i = 0; i < c.batch; i++) sink += handle(c.wire(i), client, out)!.length;
        }
      });
    }
    await bench.run();
    for (const t of bench.tasks) {
      const c = cases.find((x) => x.name === t.name)!;
      const ns = ((t.result?.latency.p50 ?? NaN) * 1e6) / c.batch;
      perRound.set(t.name, [...(perRound.get(t.name) ?? []), ns]);
    }
  }
  const ns = (name: string): number => median(perRound.get(name) ?? []);
  const base = ns('A, no DO (unsigned)');
  const rows = cases.map((c) => ({
    case: c.name,
    'ns/query (median of rounds)': Math.round(ns(c.name)),
    'vs unsigned A': Number((base / ns(c.name)).toFixed(2)),
  }));
  if (process.argv.includes('--json')) console.log(JSON.stringify(rows));
  else console.table(rows);
  console.log(
    `signed/unsigned throughput (A, DO warm vs no DO): ${(base / ns('A, DO (warm)')).toFixed(2)} (target ≥ 0.8)`,
  );
  if (sink === 0) console.error('unreachable');
}

if (process.argv[1]?.endsWith('signed-answer.bench.ts')) void main();
