/**
 * Micro-benchmark of steered answers: handleMessage for A queries at a load balancer hostname
 * against a static A answer from the same zone, in the same run. Each tinybench iteration answers
 * BATCH queries; figures are the median over ROUNDS interleaved rounds, in ns per query, and `ratio` is static ns / case ns (1 = as fast as a
 * static answer). `npx tsx bench/steering.bench.ts [--json]`.
 */
import { Bench } from 'tinybench';
import { DEFAULT_GEOIP_DB, openIpLocator } from '../src/geo/ip-locator.ts';
import {
  MemberHealthTable,
  ZoneStore,
  createMessageHandler,
  createOutcome,
  parseZoneFile,
} from '../src/dns/index.ts';
import type { ClientInfo, SteeringLoadBalancer, SteeringPool } from '../src/dns/index.ts';
import { createSeededRandom } from '../src/testing/seeded-random.ts';
import { buildQuery } from '../test/conformance/query-wire-builder.ts';

const ORIGIN = 'bench.example';
const BATCH = 200;
const BENCH_TIME_MS = 500;
const ROUNDS = 5;
const TYPE_A = 1;
const OPTION_CLIENT_SUBNET = 8;

const ZONE = `
$ORIGIN ${ORIGIN}.
$TTL 300
@ SOA ns1 hostmaster 1 7200 3600 1209600 300
@ NS ns1
ns1 A 192.0.2.53
static A 192.0.2.10
`;

function pools(): SteeringPool[] {
  const p = (id: number, name: string, base: number, affinity: boolean): SteeringPool => ({
    id,
    name,
    algorithm: 'weighted_rr',
    enabled: true,
    sessionAffinity: affinity ? 'client_ip' : 'none',
    primaryLocation: null,
    members: [1, 2, 3].map((i) => ({
      id: id * 100 + i,
      address: `198.51.${base}.${i}`,
      family: 4 as const,
      weight: i * 10,
      priority: 0,
      enabled: true,
    })),
  });
  return [p(1, 'us', 1, false), p(2, 'eu', 2, true), p(3, 'default', 3, false)];
}

function lb(id: number, hostname: string, over: Partial<SteeringLoadBalancer>): SteeringLoadBalancer {
  return {
    id,
    name: hostname,
    hostname: `${hostname}.${ORIGIN}`,
    ttl: 30,
    enabled: true,
    sessionAffinity: 'none',
    policy: 'geo',
    locationStrategy: 'resolver_ip',
    defaultPools: [3],
    fallbackPoolId: null,
    regionPools: { WEU: [2] },
    countryPools: { US: [1] },
    locationPools: {},
    onAllUnhealthy: 'serve_last',
    ...over,
  };
}

function buildStore(): ZoneStore {
  const parsed = parseZoneFile(ZONE, ORIGIN);
  if (parsed.errors.length > 0) throw new Error(JSON.stringify(parsed.errors));
  const store = new ZoneStore();
  store.replaceAll([
    {
      id: 1,
      domain: ORIGIN,
      serial: 1,
      records: parsed.records.map((r) => ({ name: r.name, type: r.type, ttl: r.ttl, rdata: r.rdata })),
      steering: {
        pools: pools(),
        loadBalancers: [
          lb(1, 'geo', {}),
          lb(2, 'pop', { locationStrategy: 'pop', policy: 'off' }),
          lb(3, 'proximity', { policy: 'proximity', defaultPools: [1, 2, 3] }),
        ],
      },
    },
  ]);
  return store;
}

function ecsQuery(name: string, subnet: readonly number[]): Buffer {
  return buildQuery({
    name: `${name}.${ORIGIN}`,
    qtype: TYPE_A,
    edns: { payload: 1232, options: [[OPTION_CLIENT_SUBNET, new Uint8Array([0, 1, 24, 0, ...subnet])]] },
  });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function main(): Promise<void> {
  const locator = await openIpLocator(DEFAULT_GEOIP_DB);
  const health = new MemberHealthTable();
  const handle = createMessageHandler(buildStore(), {
    health,
    pop: 'FRA',
    locator,
    random: createSeededRandom(1).next,
  });
  const out = createOutcome();
  const client: ClientInfo = { transport: 'udp', address: '192.0.2.1', port: 5353, family: 4 };
  const edns = { payload: 1232 };
  const cases = [
    { name: 'static A', wire: buildQuery({ name: `static.${ORIGIN}`, qtype: TYPE_A, edns }) },
    { name: 'static A + ECS', wire: ecsQuery('static', [8, 8, 8]) },
    { name: 'LB pop, off', wire: buildQuery({ name: `pop.${ORIGIN}`, qtype: TYPE_A, edns }) },
    { name: 'LB geo ECS US (country)', wire: ecsQuery('geo', [8, 8, 8]) },
    { name: 'LB geo ECS NL (region, affinity)', wire: ecsQuery('geo', [193, 0, 6]) },
    { name: 'LB proximity ECS DE', wire: ecsQuery('proximity', [194, 25, 134]) },
  ];
  for (const c of cases) {
    const res = handle(c.wire, client, out);
    if (res === null || out.kind !== 'positive') throw new Error(`${c.name}: ${out.kind} rcode=${out.rcode}`);
  }
  // The host may be shared: run every case ROUNDS times, interleaved, and report each case's median.
  const samples = new Map<string, number[]>();
  let sink = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const bench = new Bench({ time: BENCH_TIME_MS, warmup: round === 0 });
    for (const c of cases) {
      const wire = c.wire;
      bench.add(c.name, () => {
        for (let i = 0; i < BATCH; i++) sink += handle(wire, client, out)!.length;
      });
    }
    await bench.run();
    for (const t of bench.tasks) {
      const ns = ((t.result?.latency.mean ?? NaN) * 1e6) / BATCH;
      const list = samples.get(t.name) ?? [];
      list.push(ns);
      samples.set(t.name, list);
    }
  }
  const nsOf = (name: string): number => median(samples.get(name)!);
  const base = nsOf('static A');
  const withEcs = nsOf('static A + ECS');
  // ratio: against the static A answer; ratio vs ECS: against a static answer to the same ECS query shape.
  const rows = cases.map((c) => ({
    case: c.name,
    'ns/query': Math.round(nsOf(c.name)),
    ratio: Number((base / nsOf(c.name)).toFixed(2)),
    'ratio vs ECS': Number((withEcs / nsOf(c.name)).toFixed(2)),
  }));
  if (process.argv.includes('--json')) console.log(JSON.stringify(rows));
  else console.table(rows);
  if (sink === 0) console.error('unreachable');
}

if (process.argv[1]?.endsWith('steering.bench.ts')) void main();
