/**
 * Micro-benchmark of the core message handler (createMessageHandler: parse → answer → write) over
 * a generated 10,000-name zone, one case per answer kind. Each tinybench iteration answers
 * BATCH queries so timer overhead stays out of the figures; results are ns per query.
 * `npx tsx bench/handle-message.bench.ts [--json]`.
 */
import { Bench } from 'tinybench';
import { ZoneStore, createMessageHandler, createOutcome, parseZoneFile } from '../src/dns/index.ts';
import type { ClientInfo, ZoneData } from '../src/dns/index.ts';
import { buildQuery, encodeName } from '../test/conformance/query-wire-builder.ts';
import { DEFAULT_BENCH_HOSTS, generateZone } from './zone-generator.ts';

export const ORIGIN = 'bench.example';
/** Queries answered per tinybench iteration. */
const BATCH = 200;
const BENCH_TIME_MS = 700;
const TYPE_A = 1;
const OPTION_CLIENT_SUBNET = 8;

/**
 * The generated 10,000-name zone plus a three-hop CNAME chain (RFC 1034 §3.6.2) ending at an
 * address, as ZoneData; `delegation` is a delegated name for the referral case. Exported for
 * bench/micro-suite.ts, which adds steering and signing to the same data.
 */
export function buildBenchZoneData(): { data: ZoneData; delegation: string; host: string } {
  const zone = generateZone({ origin: ORIGIN, hostCount: DEFAULT_BENCH_HOSTS });
  const text = `${zone.text}chain1 CNAME chain2\nchain2 CNAME chain3\nchain3 CNAME ${zone.hosts[0]}\n`;
  const parsed = parseZoneFile(text, ORIGIN);
  if (parsed.errors.length > 0) throw new Error(`bench zone: ${JSON.stringify(parsed.errors.slice(0, 3))}`);
  return {
    data: {
      id: 1,
      domain: ORIGIN,
      serial: 1,
      records: parsed.records.map((r) => ({ name: r.name, type: r.type, ttl: r.ttl, rdata: r.rdata })),
    },
    delegation: zone.delegations[zone.delegations.length >> 1]!,
    host: zone.hosts[0]!,
  };
}

function buildStore(): { store: ZoneStore; delegation: string } {
  const { data, delegation } = buildBenchZoneData();
  const store = new ZoneStore();
  store.replaceAll([data]);
  return { store, delegation };
}

export interface BenchCase {
  name: string;
  wire: Buffer;
}

export function benchCases(delegation: string, host: string): BenchCase[] {
  const edns = { payload: 1232 };
  const q = (name: string): Buffer => buildQuery({ name: `${name}.${ORIGIN}`, qtype: TYPE_A, edns });
  return [
    { name: 'static A', wire: q(host) },
    { name: 'NXDOMAIN', wire: q('nothere') },
    { name: 'wildcard', wire: q('foo.wild') },
    { name: 'CNAME chain (3)', wire: q('chain1') },
    { name: 'referral', wire: q(`www.${delegation}`) },
    {
      name: 'ECS query',
      wire: buildQuery({
        name: `${host}.${ORIGIN}`,
        qtype: TYPE_A,
        edns: { payload: 1232, options: [[OPTION_CLIENT_SUBNET, new Uint8Array([0, 1, 24, 0, 192, 0, 2])]] },
      }),
    },
    {
      // Trailing bytes after the question: FORMERR (RFC 1035 §4.1).
      name: 'malformed (FORMERR)',
      wire: Buffer.from([
        0xab,
        0xcd,
        1,
        0,
        0,
        1,
        0,
        0,
        0,
        0,
        0,
        0,
        ...encodeName(`${host}.${ORIGIN}`),
        0,
        1,
        0,
        1,
        9,
        9,
      ]),
    },
  ];
}

async function main(): Promise<void> {
  const { store, delegation } = buildStore();
  const handle = createMessageHandler(store);
  const out = createOutcome();
  const client: ClientInfo = { transport: 'udp', address: '192.0.2.1', port: 5353, family: 4 };
  const cases = benchCases(delegation, 'host0');
  for (const c of cases) {
    const res = handle(c.wire, client, out);
    if (res === null) throw new Error(`${c.name}: no response`);
    console.error(`${c.name.padEnd(20)} rcode=${out.rcode} kind=${out.kind} bytes=${res.length}`);
  }
  const bench = new Bench({ time: BENCH_TIME_MS, warmup: true });
  let sink = 0;
  for (const c of cases) {
    const wire = c.wire;
    bench.add(c.name, () => {
      for (let i = 0; i < BATCH; i++) sink += handle(wire, client, out)!.length;
    });
  }
  await bench.run();
  const rows = bench.tasks.map((t) => {
    // Median iteration (robust against GC pauses and a busy machine), in ms per BATCH queries.
    const p50 = t.result?.latency.p50 ?? NaN;
    const mean = t.result?.latency.mean ?? NaN;
    return {
      case: t.name,
      'ns/query (p50)': Math.round((p50 * 1e6) / BATCH),
      'ns/query (mean)': Math.round((mean * 1e6) / BATCH),
    };
  });
  if (process.argv.includes('--json')) console.log(JSON.stringify(rows));
  else console.table(rows);
  if (sink === 0) console.error('unreachable');
}

if (process.argv[1]?.endsWith('handle-message.bench.ts')) void main();
