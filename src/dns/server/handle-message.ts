import type { AnswerContext } from '../answer/answer-stages.ts';
import type { ChaosIdentity } from '../answer/chaos-identity.ts';
import { runAnswerPipeline } from '../answer/answer-stages.ts';
import { signIfRequested } from '../answer/signing-stage.ts';
import { createPlan, resetPlan } from '../answer/answer-plan.ts';
import { createResolverScratch } from '../answer/name-resolver.ts';
import type { ClientSubnet } from '../wire/message/client-subnet.ts';
import { clientSubnetEchoSize, writeClientSubnetEcho } from '../wire/message/client-subnet.ts';
import {
  EDE_NOT_AUTHORITATIVE,
  EDNS_OPTION_CLIENT_SUBNET,
  EDNS_OPTION_COOKIE,
  EDNS_OPTION_EDE,
  EDNS_OPTION_NSID,
  EDNS_PAYLOAD_OURS,
  HEADER_SIZE,
  OPCODE_NOTIFY,
  OPCODE_QUERY,
  OPCODE_UPDATE,
  RCODE_BADVERS,
  RCODE_FORMERR,
  RCODE_NOTIMP,
  RCODE_NOERROR,
  RCODE_SERVFAIL,
  TCP_MAX,
  UDP_PLAIN_MAX,
} from '../wire/message/message-constants.ts';
import type { ParsedQuery } from '../wire/message/query-parser.ts';
import { createParsedQuery, parseQuery } from '../wire/message/query-parser.ts';
import type { OptSpec } from '../wire/message/response-writer.ts';
import { OPT_FIXED_SIZE, ResponseWriter } from '../wire/message/response-writer.ts';
import type { ZoneStore } from '../zone/zone-store.ts';
import type { IpLocator } from '../../geo/ip-locator.ts';
import type { HealthView } from '../steering/steering-config.ts';
import type { SteeringRuntime } from '../steering/steered-answer.ts';
import type { LbAnswerCounts } from '../steering/lb-answer-counts.ts';
import type { TransferHandler } from '../transfer/transfer-handler.ts';
import { ALL_UNKNOWN_HEALTH } from '../steering/steered-answer.ts';
import { RR_TYPE } from '../wire/rr-type.ts';
import { zoneDnssec } from '../dnssec/signing-registry.ts';
import type { AnswerPlan, ReadyRecords } from '../answer/answer-plan.ts';
import { AnswerCache, createAnswerCacheCounters, STATIC_ANSWER, STEERED_UNCOUNTED } from './answer-cache.ts';
import { ByteCopier } from '../wire/byte-copy.ts';
import type { AnswerCacheCounters, OutcomeKind } from './answer-cache.ts';
import {
  addressOctets,
  CLIENT_COOKIE_SIZE,
  SERVER_COOKIE_SIZE,
  type ServerCookies,
} from './server-cookies.ts';

export interface ClientInfo {
  transport: 'udp' | 'tcp';
  address: string;
  port: number;
  family: 4 | 6;
}

/** Filled by handleMessage for the caller (stats, RRL); one object reused by each socket. */
export interface MessageOutcome {
  rcode: number; // final RCODE incl. extended (BADVERS=16)
  qtype: number; // -1 when no question could be read
  zoneId: number; // -1 when no served zone
  zoneApex: string; // stored form of the zone apex ('' when none) — RRL keys on it
  kind: OutcomeKind;
  truncated: boolean;
  /** The query carried a valid server cookie of ours (RFC 7873 §5.2.4): exempt from RRL. */
  cookieValid: boolean;
  /**
   * The answer depends on the query's bytes and the zone's snapshot only (and, for a steered
   * answer, the health generation), so an answer cache may keep it (answer-cache.ts; one per
   * transport, as a TCP answer is never truncated): from a served zone, no COOKIE option, not a
   * transfer, no error; a load balancer's steered answer only when its decision allows
   * (lastDnsDecisionKeepable).
   */
  cacheable: boolean;
  /**
   * The answer went through the signing stage (DO set, signed zone): its RRSIGs are made and
   * refreshed over time, so a cache keeps it for a bounded time only.
   */
  signed: boolean;
}

export function createOutcome(): MessageOutcome {
  return {
    rcode: 0,
    qtype: -1,
    zoneId: -1,
    zoneApex: '',
    kind: 'dropped',
    truncated: false,
    cookieValid: false,
    cacheable: false,
    signed: false,
  };
}

/** Opcodes whose header-only (QDCOUNT 0) message is FORMERR rather than NOTIMP (Knot 3.2). */
const FORMERR_OPCODES: ReadonlySet<number> = new Set([OPCODE_QUERY, OPCODE_NOTIFY, OPCODE_UPDATE]);

/** Extended DNS Error option (RFC 8914 §2) with no EXTRA-TEXT. */
const EDE_OPTION_SIZE = 6;
/** COOKIE option answered: code, length, client cookie (8), server cookie (16). */
const COOKIE_OPTION_SIZE = 4 + CLIENT_COOKIE_SIZE + SERVER_COOKIE_SIZE;
const EMPTY_ADDRESS = new Uint8Array(0);
const NO_KEYS: readonly string[] = [];

/**
 * Per-handler state reused for every message: the parsed query (its `ecs` is the Client Subnet
 * option for steering), the plan, the output buffer. One per socket / call site.
 */
export interface MessageContext extends AnswerContext {
  readonly writer: ResponseWriter;
  /** The OPT RR of the response being built (reused; its option writer is created once). */
  readonly opt: OptSpec;
  /** Add Extended DNS Error 20 to the current response. */
  withEde: boolean;
  /** Answers IXFR over UDP for zones with a transfer policy (RFC 1995 §2); null: none. */
  transfer: Pick<TransferHandler, 'handleUdp'> | null;
  /** This server's identity for NSID (RFC 5001); null: not answered. */
  nsid: Uint8Array | null;
  /** DNS cookies (RFC 7873, RFC 9018); null: COOKIE options are ignored. */
  cookies: ServerCookies | null;
  /** The current response carries a COOKIE option for `cookieAddress`. */
  withCookie: boolean;
  cookieAddress: Uint8Array;
  /** The address `cookieAddress` was read from. */
  cookieAddressText: string;
  /** The query being answered (the COOKIE option is copied from it). */
  queryBytes: Uint8Array;
  /** Where the last response is: the writer's buffer, or a transfer's own message. */
  result: Buffer;
}

export function createMessageContext(): MessageContext {
  const query = createParsedQuery();
  const writer = new ResponseWriter();
  const ctx: MessageContext = {
    query,
    transport: 'udp',
    plan: createPlan(),
    scratch: createResolverScratch(),
    qname: { query: query.name, keys: NO_KEYS, owner: null, wire: query.name.lower, wireLength: 0 },
    writer,
    ecsScope: 0,
    steeredKeepable: false,
    steeredToken: -1,
    steering: null,
    clientAddress: null,
    opt: { doBit: false, writeOptions: null },
    withEde: false,
    transfer: null,
    nsid: null,
    cookies: null,
    withCookie: false,
    cookieAddress: EMPTY_ADDRESS,
    cookieAddressText: '',
    queryBytes: EMPTY_ADDRESS,
    result: writer.bytes,
  };
  ctx.opt.writeOptions = (buf, pos) => writeOptions(ctx, buf, pos);
  return ctx;
}

/** Largest response the client accepts (RFC 1035 §4.2.1, RFC 6891 §6.2.5, RFC 1035 §4.2.2). */
function responseLimit(q: ParsedQuery, transport: 'udp' | 'tcp'): number {
  if (transport === 'tcp') return TCP_MAX;
  return q.edns ? Math.min(q.udpSize, EDNS_PAYLOAD_OURS) : UDP_PLAIN_MAX;
}

function kindOf(ctx: MessageContext): MessageOutcome['kind'] {
  const p = ctx.plan;
  switch (p.kind) {
    case 'refused':
      return 'refused';
    case 'error':
    case 'truncated':
      return 'error';
    case 'delegation':
      return 'referral';
    case 'nxdomain':
      return 'nxdomain';
    case 'nodata':
      return p.wildcard ? 'wildcard' : 'nodata';
    case 'found':
      return p.wildcard ? 'wildcard' : 'positive';
    case 'cname-follow':
      if (p.wildcard) return 'wildcard';
      return p.chainEnd === 'nxdomain' ? 'nxdomain' : p.chainEnd === 'nodata' ? 'nodata' : 'positive';
  }
}

/**
 * EDNS options of an answer (RFC 6891 §6.1.2): the ECS echo when asked, NSID when asked and set
 * (RFC 5001 §2.2), the COOKIE answer (RFC 7873 §5.2), EDE when set.
 */
function writeOptions(ctx: MessageContext, buf: Buffer, pos: number): number {
  const q = ctx.query;
  const ecs: ClientSubnet = q.ecs;
  let p = pos;
  if (ecs.present) p = writeClientSubnetEcho(buf, p, ecs, ctx.ecsScope, EDNS_OPTION_CLIENT_SUBNET);
  if (q.nsid && ctx.nsid !== null) {
    buf[p] = 0;
    buf[p + 1] = EDNS_OPTION_NSID;
    buf[p + 2] = ctx.nsid.length >> 8;
    buf[p + 3] = ctx.nsid.length & 0xff;
    buf.set(ctx.nsid, p + 4);
    p += 4 + ctx.nsid.length;
  }
  if (ctx.withCookie && ctx.cookies !== null) {
    buf[p] = 0;
    buf[p + 1] = EDNS_OPTION_COOKIE;
    buf[p + 2] = 0;
    buf[p + 3] = CLIENT_COOKIE_SIZE + SERVER_COOKIE_SIZE;
    buf.set(ctx.queryBytes.subarray(q.cookieAt, q.cookieAt + CLIENT_COOKIE_SIZE), p + 4);
    p = ctx.cookies.write(ctx.queryBytes, q.cookieAt, ctx.cookieAddress, buf, p + 4 + CLIENT_COOKIE_SIZE);
  }
  if (ctx.withEde) {
    buf[p] = EDNS_OPTION_EDE >> 8;
    buf[p + 1] = EDNS_OPTION_EDE & 0xff;
    buf[p + 2] = 0;
    buf[p + 3] = 2;
    buf[p + 4] = EDE_NOT_AUTHORITATIVE >> 8;
    buf[p + 5] = EDE_NOT_AUTHORITATIVE & 0xff;
    p += EDE_OPTION_SIZE;
  }
  return p;
}

/**
 * A header-and-question response (FORMERR, BADVERS, SERVFAIL...), OPT only when `withOpt`, the
 * Client Subnet echo (scope 0) only when `withEcs` (BADVERS, as Knot).
 */
function shortResponse(
  ctx: MessageContext,
  query: Uint8Array,
  rcode: number,
  withOpt: boolean,
  withEcs = false,
): number {
  const q = ctx.query;
  const opt = withOpt && q.edns;
  ctx.writer.begin(query, q, TCP_MAX, 0);
  ctx.withEde = false;
  ctx.ecsScope = 0;
  ctx.opt.doBit = q.ednsDo;
  ctx.result = ctx.writer.bytes;
  return ctx.writer.finishInPlace(q, rcode, false, opt ? ctx.opt : null, withEcs && q.ecs.present);
}

/** A kind of answer a cache may keep, given the query (see MessageOutcome.cacheable). */
function cacheableAnswer(ctx: MessageContext, plan: AnswerPlan): boolean {
  const q = ctx.query;
  return (
    plan.zone !== null &&
    (!plan.steered || ctx.steeredKeepable) &&
    plan.kind !== 'refused' &&
    plan.kind !== 'error' &&
    q.cookieAt < 0 &&
    q.qtype !== RR_TYPE.IXFR &&
    q.qtype !== RR_TYPE.AXFR
  );
}

/** What answer-cache.ts keeps beside the last answer: static, or steered (with its count token). */
function steeredMark(ctx: MessageContext): number {
  if (!ctx.plan.steered) return STATIC_ANSWER;
  return ctx.steeredToken >= 0 ? ctx.steeredToken : STEERED_UNCOUNTED;
}

/** The plan's authority records kept as bytes (NSEC3 proofs, answer-plan.ts ReadyRecords). */
function writeReady(w: ResponseWriter, ready: ReadyRecords): void {
  for (let i = 0; i < ready.count; i++) {
    if (!w.addReadyPair(1, ready.bytes, ready.at[i]!, ready.length[i]!, ready.apexLabels)) return;
  }
}

function answer(ctx: MessageContext, store: ZoneStore, query: Uint8Array, out: MessageOutcome): number {
  const q = ctx.query;
  const plan = ctx.plan;
  resetPlan(plan);
  ctx.ecsScope = 0;
  ctx.steeredKeepable = false;
  ctx.steeredToken = -1;
  ctx.qname.wireLength = q.qnameEnd - HEADER_SIZE;
  runAnswerPipeline(ctx, store);
  // DNSSEC (RFC 4035 §3.1): RRSIGs and denial proofs when DO is set and the zone is signed.
  signIfRequested(plan, q);
  if (plan.zone) {
    out.zoneId = plan.zone.id;
    out.zoneApex = plan.zone.domain;
  }
  const withEde = plan.edeNotAuthoritative && q.edns;
  ctx.withEde = withEde;
  const withNsid = q.nsid && ctx.nsid !== null;
  const reserve = q.edns
    ? OPT_FIXED_SIZE +
      (q.ecs.present ? clientSubnetEchoSize(q.ecs) : 0) +
      (withEde ? EDE_OPTION_SIZE : 0) +
      (withNsid ? 4 + ctx.nsid!.length : 0) +
      (ctx.withCookie ? COOKIE_OPTION_SIZE : 0)
    : 0;
  const w = ctx.writer;
  w.begin(query, q, responseLimit(q, ctx.transport), reserve);
  for (let s = 0 as 0 | 1 | 2; s < 3; s++) {
    const sec = plan.sections[s];
    for (let i = 0; i < sec.count; i++) {
      // Answer/authority that does not fit, or referral glue (Knot 3.2), truncates and ends the message.
      if (!w.addRRset(s, sec.owners[i]!, sec.sets[i]!) && (w.truncated || sec.mandatory[i])) {
        w.truncated = true;
        break;
      }
    }
    if (s === 1 && !w.truncated) writeReady(w, plan.ready);
    if (w.truncated) break;
  }
  out.truncated = w.truncated;
  out.rcode = plan.rcode;
  out.kind = kindOf(ctx);
  out.cacheable = cacheableAnswer(ctx, plan);
  // Signatures and denial proofs are made and refreshed over time, not per snapshot.
  out.signed = q.ednsDo && plan.zone !== null && zoneDnssec(plan.zone) !== null;
  ctx.opt.doBit = q.ednsDo;
  ctx.result = w.bytes;
  return w.finishInPlace(
    q,
    plan.rcode,
    plan.aa,
    q.edns ? ctx.opt : null,
    q.ecs.present || withEde || withNsid || ctx.withCookie,
  );
}

function handle(
  ctx: MessageContext,
  store: ZoneStore,
  query: Uint8Array,
  client: ClientInfo,
  out: MessageOutcome,
): number {
  out.rcode = RCODE_NOERROR;
  out.qtype = -1;
  out.zoneId = -1;
  out.zoneApex = '';
  out.kind = 'dropped';
  out.truncated = false;
  out.cookieValid = false;
  out.cacheable = false;
  out.signed = false;
  ctx.transport = client.transport;
  ctx.clientAddress = client.address;
  ctx.withCookie = false;
  ctx.queryBytes = query;
  const q = ctx.query;
  const status = parseQuery(query, q);
  if (q.hasQuestion) out.qtype = q.qtype;
  if (status === 'drop') return -1;
  if (status !== 'ok') {
    // Header-only QUERY/NOTIFY/UPDATE → FORMERR; any other opcode is refused first → NOTIMP (Knot 3.2).
    const rcode =
      status === 'formerr-edns' && !q.hasQuestion && !FORMERR_OPCODES.has(q.opcode)
        ? RCODE_NOTIMP
        : RCODE_FORMERR;
    out.rcode = rcode;
    out.kind = 'error';
    return shortResponse(ctx, query, rcode, status === 'formerr-edns');
  }
  // RFC 6891 §6.1.3: an EDNS version we do not implement → BADVERS, with our OPT (version 0).
  if (q.edns && q.ednsVersion > 0) {
    out.rcode = RCODE_BADVERS;
    out.kind = 'error';
    return shortResponse(ctx, query, RCODE_BADVERS, true, true);
  }
  if (ctx.cookies !== null && q.cookieAt >= 0) {
    // RFC 7873 §5.2.2: a client cookie alone (8 octets), or with a server cookie of 8 to 32.
    const length = q.cookieLength;
    if (length < CLIENT_COOKIE_SIZE || (length > CLIENT_COOKIE_SIZE && length < 16) || length > 40) {
      out.rcode = RCODE_FORMERR;
      out.kind = 'error';
      return shortResponse(ctx, query, RCODE_FORMERR, true);
    }
    ctx.withCookie = true;
    // A client usually sends many: its address is read into octets once, not per query.
    if (client.address !== ctx.cookieAddressText) {
      ctx.cookieAddress = addressOctets(client.address);
      ctx.cookieAddressText = client.address;
    }
    if (length > CLIENT_COOKIE_SIZE) {
      out.cookieValid = ctx.cookies.valid(
        query,
        q.cookieAt,
        q.cookieAt + CLIENT_COOKIE_SIZE,
        length - CLIENT_COOKIE_SIZE,
        ctx.cookieAddress,
      );
    }
  }
  if (ctx.transfer !== null && q.qtype === RR_TYPE.IXFR && client.transport === 'udp') {
    const r = ctx.transfer.handleUdp(query, client.address);
    if (r !== null) {
      out.rcode = r.rcode;
      out.zoneId = r.zoneId ?? -1;
      out.kind = r.rcode === RCODE_NOERROR ? 'positive' : 'error';
      ctx.result = r.messages[0]!;
      return ctx.result.length;
    }
  }
  return answer(ctx, store, query, out);
}

/** Load-balancer steering inputs of a handler; every field optional. */
export interface MessageHandlerOptions {
  /** Member health; default: every member `unknown` (healthy). */
  health?: HealthView;
  /** This node's location code (config POP), keying `location_pools`; default none (''). */
  pop?: string;
  /** Client location for `resolver_ip` steering; default none (no country/region/coordinates). */
  locator?: IpLocator;
  /** Uniform [0, 1) source for weighted and random choices; default Math.random. */
  random?: () => number;
  /** Zone transfers: IXFR over UDP is answered here (TCP transfers go to the TCP listener). */
  transfer?: Pick<TransferHandler, 'handleUdp'> | null;
  /** NSID answered to queries that ask (RFC 5001); default none. */
  nsid?: Uint8Array | null;
  /** DNS cookies answered and checked (RFC 7873, RFC 9018); default none (options ignored). */
  cookies?: ServerCookies | null;
  /** Identity and version answered in class CHAOS (chaosIdentity()); default none (REFUSED). */
  chaos?: ChaosIdentity | null;
  /** Counts answers at load balancers' hostnames (metrics); default not counted. */
  lbAnswers?: LbAnswerCounts | null;
  /**
   * Keep finished answers (answer-cache.ts) for the slot entry point, in one cache for UDP and one
   * for TCP (a TCP answer is the untruncated one; made on the first TCP query), each of this
   * memory bound in bytes
   * (0: no cache), where to count hits and the clock of signed answers' expiry (default
   * Date.now); default none.
   */
  answerCache?: { bytes: number; counters?: AnswerCacheCounters; now?: () => number } | null;
}

function steeringRuntime(options: MessageHandlerOptions): SteeringRuntime {
  return {
    health: options.health ?? ALL_UNKNOWN_HEALTH,
    pop: (options.pop ?? '').toUpperCase(),
    locator: options.locator ?? null,
    random: options.random ?? Math.random,
    answers: options.lbAnswers ?? null,
  };
}

/**
 * Builds the per-socket message handler: bytes in, response bytes out (null = send nothing).
 * Never throws: an internal failure answers SERVFAIL (or nothing when the header is unreadable).
 */
export function createMessageHandler(
  store: ZoneStore,
  options: MessageHandlerOptions = {},
): (query: Uint8Array, client: ClientInfo, out: MessageOutcome) => Buffer | null {
  return createMessageHandlerWithContext(store, options).handle;
}

/**
 * The UDP batch path's handler: answers the query at src[off, off + len) straight into dst at
 * dstOff (at most `max` bytes); returns the length, or -1 to send nothing. No Buffer per answer.
 */
export type DnsSlotHandler = (
  src: Uint8Array,
  off: number,
  len: number,
  client: ClientInfo,
  out: MessageOutcome,
  dst: Uint8Array,
  dstOff: number,
  max: number,
) => number;

/** A message handler's two entry points over one reused context. */
export interface MessageHandlers {
  /** Bytes in, a response Buffer of its own out (null = send nothing): TCP, node:dgram. */
  handle: (query: Uint8Array, client: ClientInfo, out: MessageOutcome) => Buffer | null;
  /**
   * The UDP batch path and the TCP listener (DnsSlotHandler), through the transport's answer cache
   * when there is one.
   */
  handleSlot: DnsSlotHandler;
  /** The UDP answer cache of `handleSlot`; null without one. */
  cache: AnswerCache | null;
  /** The TCP answer cache of `handleSlot`; null without one or before the first TCP query. */
  tcpCache(): AnswerCache | null;
  context: MessageContext;
}

/** The TCP answer cache's bound, as a share of DNS_ANSWER_CACHE_MB (the UDP one's). */
const TCP_CACHE_SHARE = 0.25;

/** As createMessageHandler, also exposing the slot entry, the cache and the reused context (tests). */
export function createMessageHandlerWithContext(
  store: ZoneStore,
  options: MessageHandlerOptions = {},
): MessageHandlers {
  const ctx = createMessageContext();
  const steering = steeringRuntime(options);
  ctx.steering = steering;
  ctx.transfer = options.transfer ?? null;
  ctx.nsid =
    options.nsid !== undefined && options.nsid !== null && options.nsid.length > 0 ? options.nsid : null;
  ctx.cookies = options.cookies ?? null;
  ctx.chaos = options.chaos ?? null;
  const cacheOptions = options.answerCache ?? null;
  const cacheCounters = cacheOptions?.counters ?? createAnswerCacheCounters();
  // TCP carries a small share of a server's queries: its cache gets a quarter of the bound.
  const newCache = (share = 1): AnswerCache | null => {
    if (cacheOptions === null || cacheOptions.bytes <= 0) return null;
    const c = new AnswerCache(cacheOptions.bytes * share, cacheCounters, cacheOptions.now ?? Date.now, {
      health: steering.health,
      lbAnswers: steering.answers,
    });
    store.onChange((zoneId) => (zoneId === null ? c.invalidateAll() : c.invalidateZone(zoneId)));
    return c;
  };
  const cache = newCache();
  let tcpCache: AnswerCache | null = null;
  /** The response's length (bytes in ctx.result), or -1 for none. */
  const answerOne = (query: Uint8Array, client: ClientInfo, out: MessageOutcome): number => {
    try {
      return handle(ctx, store, query, client, out);
    } catch {
      out.rcode = RCODE_SERVFAIL;
      out.kind = 'error';
      out.truncated = false;
      out.cacheable = false;
      if (query.length < HEADER_SIZE) return -1;
      try {
        ctx.query.hasQuestion = ctx.query.hasQuestion && ctx.query.questionEnd <= query.length;
        return shortResponse(ctx, query, RCODE_SERVFAIL, false);
      } catch {
        return -1;
      }
    }
  };
  const handleOne = (query: Uint8Array, client: ClientInfo, out: MessageOutcome): Buffer | null => {
    const n = answerOne(query, client, out);
    if (n < 0) return null;
    return ctx.result === ctx.writer.bytes ? ctx.writer.copyOut(n) : ctx.result;
  };
  const copier = new ByteCopier();
  const handleSlot: DnsSlotHandler = (src, off, len, client, out, dst, dstOff, max) => {
    const c =
      client.transport === 'udp' ? cache : cache === null ? null : (tcpCache ??= newCache(TCP_CACHE_SHARE));
    if (c !== null) {
      const hit = c.answer(src, off, len, dst, dstOff, out);
      if (hit >= 0) return hit;
    }
    const n = answerOne(src.subarray(off, off + len), client, out);
    if (n < 0 || n > max) return -1;
    copier.copy(ctx.result, 0, dst, dstOff, n);
    if (c !== null && out.cacheable) c.store(src, off, len, dst, dstOff, n, out, steeredMark(ctx));
    return n;
  };
  return { handle: handleOne, handleSlot, cache, tcpCache: () => tcpCache, context: ctx };
}
