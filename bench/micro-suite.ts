/**
 * Micro part of `npm run bench` (tinybench, in process): the three stages of answering a query
 * (parse, snapshot lookup, answer encode) and the full handleMessage for each answer kind, over the
 * generated 10,000-name zone of bench/handle-message.bench.ts, plus a steered load-balancer answer
 * and a DNSSEC-signed answer (DO set, signature cache warm) on the same zone data.
 * The machine may be shared: every case runs in each of `rounds` interleaved rounds and the
 * median round is reported, with the spread between rounds as the noise figure.
 */
import { Bench } from 'tinybench';
import { withSigning } from './signed-zone.ts';
// The stage cases time parse, lookup and encode one at a time: they reach the answer floor's
// internals (the allow-list of test/architecture/dns-floors.test.ts); the rest is public API.
import { runAnswerPipeline } from '../src/dns/answer/answer-stages.ts';
import { resetPlan } from '../src/dns/answer/answer-plan.ts';
import { HEADER_SIZE } from '../src/dns/wire/message/message-constants.ts';
import { parseQuery } from '../src/dns/wire/message/query-parser.ts';
import { OPT_FIXED_SIZE } from '../src/dns/wire/message/response-writer.ts';
import { createMessageContext } from '../src/dns/server/handle-message.ts';
import {
  MemberHealthTable,
  ServerCookies,
  ZoneStore,
  createMessageHandler,
  createMessageHandlerWithContext,
  DEFAULT_ANSWER_CACHE_BYTES,
  LbAnswerCounts,
  createOutcome,
} from '../src/dns/index.ts';
import type { ClientInfo, ZoneData } from '../src/dns/index.ts';
import { DEFAULT_GEOIP_DB, openIpLocator } from '../src/geo/ip-locator.ts';
import {
  decideHealth,
  DEFAULT_HEALTH_POLICY,
  quorumVerdict,
  type StoredHealth,
  type Verdict,
} from '../src/health/health-decision.ts';
import { createSeededRandom } from '../src/testing/seeded-random.ts';
import { loadBalancer, member, pool } from '../src/testing/steering-fixture.ts';
import { buildQuery } from '../test/conformance/query-wire-builder.ts';
import { ORIGIN, benchCases, buildBenchZoneData } from './handle-message.bench.ts';
import { median, spreadPct } from './bench-stats.ts';

/** Operations per tinybench iteration, so timer overhead stays out of the figures. */
const BATCH = 200;
const TYPE_A = 1;
const OPTION_CLIENT_SUBNET = 8;
const LB_HOST = 'lb';

export interface MicroOptions {
  rounds: number;
  /** tinybench time per case per round, ms. */
  timeMs: number;
}

export interface MicroRow {
  case: string;
  /** Median over rounds of each round's median ns per operation. */
  nsPerOp: number;
  minNs: number;
  maxNs: number;
  /** (max − min) / median over rounds, percent: the noise of this case. */
  spreadPct: number;
  opsPerSec: number;
  /** Response size, bytes (handleMessage cases). */
  bytes: number | null;
  /** Against the case named in `ratioOf` (baseline ns ÷ this ns; 1 = as fast). */
  ratio: number | null;
  ratioOf: string | null;
  note: string | null;
}

export interface MicroResult {
  options: MicroOptions;
  rows: MicroRow[];
  /** Rows that could not be measured and why. */
  unavailable: Array<{ case: string; reason: string }>;
}

interface Case {
  name: string;
  op: () => number;
  bytes: number | null;
  ratioOf?: string;
  note?: string;
}

/** Pools and a geo load balancer at lb.<origin> (steering.bench.ts uses the same shape). */
function withSteering(data: ZoneData): ZoneData {
  const p = (id: number, base: number) =>
    pool(
      id,
      [1, 2, 3].map((i) => member(id * 100 + i, `198.51.${base}.${i}`, { weight: i * 10 })),
    );
  return {
    ...data,
    steering: {
      pools: [p(1, 1), p(2, 2), p(3, 3)],
      loadBalancers: [
        loadBalancer({
          hostname: `${LB_HOST}.${ORIGIN}`,
          ttl: 30,
          policy: 'geo',
          locationStrategy: 'resolver_ip',
          defaultPools: [3],
          regionPools: { WEU: [2] },
          countryPools: { US: [1] },
        }),
      ],
    },
  };
}

function storeOf(data: ZoneData): ZoneStore {
  const store = new ZoneStore();
  store.replaceAll([data]);
  return store;
}

async function buildCases(): Promise<Case[]> {
  const { data, delegation, host } = buildBenchZoneData();
  const store = storeOf(withSteering(data));
  const signedStore = storeOf(withSigning(data));
  const locator = await openIpLocator(DEFAULT_GEOIP_DB);
  const handle = createMessageHandler(store, {
    health: new MemberHealthTable(),
    pop: 'FRA',
    locator,
    random: createSeededRandom(1).next,
  });
  const handleSigned = createMessageHandler(signedStore);
  const out = createOutcome();
  const client: ClientInfo = { transport: 'udp', address: '192.0.2.1', port: 5353, family: 4 };
  // A public resolver address, so resolver_ip steering finds a country (US) in the GeoIP data.
  const resolver: ClientInfo = { ...client, address: '8.8.8.8' };
  const staticA = buildQuery({ name: `${host}.${ORIGIN}`, qtype: TYPE_A, edns: { payload: 1232 } });

  // Stages, on the static A query: parse alone, lookup on a parsed query, encode a resolved plan.
  const ctx = createMessageContext();
  ctx.clientAddress = client.address;
  const q = ctx.query;
  if (parseQuery(staticA, q) !== 'ok') throw new Error('static A does not parse');
  const lookup = (): number => {
    resetPlan(ctx.plan);
    ctx.ecsScope = 0;
    ctx.qname.wireLength = q.qnameEnd - HEADER_SIZE;
    runAnswerPipeline(ctx, store);
    return ctx.plan.sections[0].count;
  };
  lookup();
  const encode = (): number => {
    const w = ctx.writer;
    w.begin(staticA, q, 1232, OPT_FIXED_SIZE);
    for (let s = 0 as 0 | 1 | 2; s < 3; s++) {
      const sec = ctx.plan.sections[s];
      for (let i = 0; i < sec.count; i++) w.addRRset(s, sec.owners[i]!, sec.sets[i]!);
    }
    ctx.opt.doBit = false;
    return w.finish(q, ctx.plan.rcode, ctx.plan.aa, ctx.opt, false).length;
  };
  const parseQ = ctx.query;
  const cases: Case[] = [
    { name: 'stage: query parse', op: () => (parseQuery(staticA, parseQ) === 'ok' ? 1 : 0), bytes: null },
    { name: 'stage: snapshot lookup', op: lookup, bytes: null },
    { name: 'stage: answer encode', op: encode, bytes: encode() },
  ];

  const full = (name: string, wire: Buffer, h = handle, c = client, extra: Partial<Case> = {}): Case => {
    const res = h(wire, c, out);
    if (res === null) throw new Error(`${name}: no response`);
    if (out.rcode !== 0 && out.kind !== 'nxdomain') throw new Error(`${name}: rcode ${out.rcode}`);
    return { name, op: () => h(wire, c, out)!.length, bytes: res.length, ...extra };
  };
  for (const bc of benchCases(delegation, host)) {
    if (bc.name.startsWith('malformed')) continue;
    const ratioOf = bc.name === 'static A' ? undefined : 'static A';
    cases.push(full(bc.name, bc.wire, handle, client, ratioOf ? { ratioOf } : {}));
  }
  const lbQuery = buildQuery({ name: `${LB_HOST}.${ORIGIN}`, qtype: TYPE_A, edns: { payload: 1232 } });
  const steered = full('steered LB (geo, resolver IP)', lbQuery, handle, resolver, {
    ratioOf: 'static A',
    note: 'target ≥ 0.7× static A',
  });
  if (out.kind !== 'positive') throw new Error(`steered: ${out.kind}`);
  cases.push(steered);
  const ecs = new Uint8Array([0, 1, 24, 0, 8, 8, 8]);
  const lbEcs = buildQuery({
    name: `${LB_HOST}.${ORIGIN}`,
    qtype: TYPE_A,
    edns: { payload: 1232, options: [[OPTION_CLIENT_SUBNET, ecs]] },
  });
  cases.push(full('steered LB (geo, ECS)', lbEcs, handle, client, { ratioOf: 'ECS query' }));
  // As the product runs: every answer at a load balancer counted for dns_lb_answers_total.
  const counted = createMessageHandler(store, {
    health: new MemberHealthTable(),
    pop: 'FRA',
    locator,
    random: createSeededRandom(1).next,
    lbAnswers: new LbAnswerCounts(),
  });
  cases.push(
    full('steered LB, answers counted', lbQuery, counted, resolver, {
      ratioOf: 'steered LB (geo, resolver IP)',
      note: 'target ≥ 0.95× steered',
    }),
  );

  // Health decided by a quorum of three PoPs with flap damping, as a DNS node holds it:
  // the default pool's members 301 (outvoted at one PoP), 302 (down at two of three), 303
  // (flapping, held by damping); a decided change applied every 1,000 answers, as the sync does.
  const decided = new MemberHealthTable();
  const stored = new Map<number, StoredHealth>();
  const pops = ['FRA', 'AMS', 'SIN'];
  const verdictOf = (memberId: number, pop: number, round: number): Verdict => {
    if (memberId === 301) return pop === 2 ? 'unhealthy' : 'healthy';
    if (memberId === 302) return pop === 0 ? 'healthy' : 'unhealthy';
    if (memberId === 303) return round % 2 === 0 ? 'healthy' : 'unhealthy';
    return 'healthy';
  };
  const damped2 = { ...DEFAULT_HEALTH_POLICY, fall: 2, rise: 2 }; // damping opted into
  const decide = (memberId: number, round: number): void => {
    const latest = pops.map((pop, i) => ({ pop, status: verdictOf(memberId, i, round) }));
    const next = decideHealth(
      stored.get(memberId) ?? { status: 'unknown', streak: 0 },
      quorumVerdict(latest, damped2.quorum),
      damped2,
    );
    stored.set(memberId, next);
    decided.set(memberId, next.status);
  };
  const memberIds = [101, 102, 103, 201, 202, 203, 301, 302, 303];
  for (let round = 0; round < 10; round++) for (const id of memberIds) decide(id, round);
  if (decided.statusOf(302) !== 'unhealthy' || decided.statusOf(301) !== 'healthy')
    throw new Error('quorum case: the decided health is not what the bench means to measure');
  const damped = createMessageHandler(store, {
    health: decided,
    pop: 'FRA',
    locator,
    random: createSeededRandom(1).next,
    lbAnswers: new LbAnswerCounts(),
  });
  const dampedCase = full('steered LB, health by quorum and damping', lbQuery, damped, resolver, {
    ratioOf: 'steered LB (geo, resolver IP)',
    note: 'target ≥ 0.95× steered',
  });
  let answers = 0;
  let round = 10;
  cases.push({
    ...dampedCase,
    op: () => {
      if (++answers % 1000 === 0) decide(303, round++);
      return damped(lbQuery, resolver, out)!.length;
    },
  });

  // NSID and cookies on, as the product runs: a plain query must not pay for them (target ≤ 3 %);
  // one that asks for both, for what answering them costs.
  const withOptions = createMessageHandler(store, {
    health: new MemberHealthTable(),
    pop: 'FRA',
    locator,
    random: createSeededRandom(1).next,
    nsid: new TextEncoder().encode('ns1.bench.example'),
    cookies: new ServerCookies(new Uint8Array(16).fill(7)),
  });
  cases.push(
    full('static A, NSID and cookies on', staticA, withOptions, client, {
      ratioOf: 'static A',
      note: 'target ≥ 0.97× static A',
    }),
  );
  const askingBoth = buildQuery({
    name: `${host}.${ORIGIN}`,
    qtype: TYPE_A,
    edns: {
      payload: 1232,
      options: [
        [3, new Uint8Array(0)],
        [10, new Uint8Array(8).fill(1)],
      ],
    },
  });
  cases.push(
    full('static A asking NSID and a cookie', askingBoth, withOptions, client, { ratioOf: 'static A' }),
  );

  // The UDP batch path: answered into a send slot, without and with the answer cache.
  const slotPlain = createMessageHandlerWithContext(store).handleSlot;
  const slotCached = createMessageHandlerWithContext(store, {
    answerCache: { bytes: DEFAULT_ANSWER_CACHE_BYTES },
  }).handleSlot;
  const rx = new Uint8Array(4096);
  const tx = new Uint8Array(4096);
  rx.set(staticA);
  const slotCase = (name: string, h: typeof slotPlain, extra: Partial<Case> = {}): Case => {
    for (let i = 0; i < 3; i++) h(rx, 0, staticA.length, client, out, tx, 0, 4096); // stored on the second miss
    return {
      name,
      op: () => h(rx, 0, staticA.length, client, out, tx, 0, 4096),
      bytes: out.rcode === 0 ? h(rx, 0, staticA.length, client, out, tx, 0, 4096) : null,
      ...extra,
    };
  };
  cases.push(slotCase('static A into the send slot', slotPlain, { ratioOf: 'static A' }));
  cases.push(
    slotCase('static A from the answer cache', slotCached, {
      ratioOf: 'static A into the send slot',
      note: 'a repeated question: one copy',
    }),
  );

  const signedA = buildQuery({ name: `${host}.${ORIGIN}`, qtype: TYPE_A, edns: { payload: 1232, do: true } });
  const signedNx = buildQuery({
    name: `nothere.${ORIGIN}`,
    qtype: TYPE_A,
    edns: { payload: 1232, do: true },
  });
  const plainA = buildQuery({ name: `${host}.${ORIGIN}`, qtype: TYPE_A, edns: { payload: 1232 } });
  // The unsigned baseline of the signed case: the same query, zone and handler, DO clear.
  cases.push(full('signed zone, A without DO', plainA, handleSigned, client, { ratioOf: 'static A' }));
  // First answers sign and fill the signature cache: every timed answer after that is warm.
  const signed = full('signed A (DO, warm cache)', signedA, handleSigned, client, {
    ratioOf: 'signed zone, A without DO',
    note: 'target ≥ 0.8× the unsigned answer',
  });
  if (signed.bytes! <= cases.find((c) => c.name === 'static A')!.bytes! + 64) {
    throw new Error('signed A carries no RRSIG: signing is not wired into the handler');
  }
  cases.push(signed);
  cases.push(
    full('signed NXDOMAIN (DO, warm cache)', signedNx, handleSigned, client, { ratioOf: 'NXDOMAIN' }),
  );
  return cases;
}

/** Runs the micro part; `log` gets one line per round. */
export async function runMicro(options: MicroOptions, log: (line: string) => void): Promise<MicroResult> {
  const unavailable: MicroResult['unavailable'] = [];
  const cases = await buildCases();
  const perRound = new Map<string, number[]>(cases.map((c) => [c.name, []]));
  let sink = 0;
  for (let round = 0; round < options.rounds; round++) {
    const bench = new Bench({ time: options.timeMs, warmup: round === 0 });
    // Rotate the order each round so no case always runs right after a GC-heavy one.
    const order = cases.map((_, i) => cases[(i + round) % cases.length]!);
    for (const c of order) {
      const op = c.op;
      bench.add(c.name, () => {
        for (let i = 0; i < BATCH; i++) sink += op();
      });
    }
    await bench.run();
    for (const t of bench.tasks) {
      const r = t.result;
      // The median iteration of the round: robust against a GC pause or a neighbour's burst.
      const p50 = r && 'latency' in r ? r.latency.p50 : NaN;
      perRound.get(t.name)!.push(((p50 ?? NaN) * 1e6) / BATCH);
    }
    log(`micro round ${round + 1}/${options.rounds} done`);
  }
  if (sink === 0) log('unreachable');
  const nsOf = (name: string): number => median(perRound.get(name)!);
  const rows = cases.map((c): MicroRow => {
    const xs = perRound.get(c.name)!;
    const ns = nsOf(c.name);
    return {
      case: c.name,
      nsPerOp: ns,
      minNs: Math.min(...xs),
      maxNs: Math.max(...xs),
      spreadPct: spreadPct(xs),
      opsPerSec: 1e9 / ns,
      bytes: c.bytes,
      ratio: c.ratioOf ? nsOf(c.ratioOf) / ns : null,
      ratioOf: c.ratioOf ?? null,
      note: c.note ?? null,
    };
  });
  return { options, rows, unavailable };
}
