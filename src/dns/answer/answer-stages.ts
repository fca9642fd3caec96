import type { AnswerPlan } from './answer-plan.ts';
import { planAdd } from './answer-plan.ts';
import type { LookupName, ResolverScratch } from './name-resolver.ts';
import { resolveInZone } from './name-resolver.ts';
import type { ParsedQuery } from '../wire/message/query-parser.ts';
import type { SteeringRuntime } from '../steering/steered-answer.ts';
import { lastDnsDecisionKeepable, steerDnsQuery } from '../steering/steered-answer.ts';
import type { CompiledLoadBalancer } from '../steering/steering-compiler.ts';
import { compiledSteering, loadBalancerOfQuery, poolRRsetKey } from '../steering/steering-compiler.ts';
import type { SteeringDecision } from '../steering/steering-decision.ts';
import type { ZoneStore } from '../zone/zone-store.ts';
import {
  CLASS_ANY,
  CLASS_CH,
  CLASS_IN,
  HEADER_SIZE,
  OPCODE_NOTIFY,
  OPCODE_QUERY,
  OPCODE_UPDATE,
  RCODE_FORMERR,
  RCODE_NOERROR,
  RCODE_NOTAUTH,
  RCODE_NOTIMP,
  RCODE_REFUSED,
  RCODE_SERVFAIL,
} from '../wire/message/message-constants.ts';
import { RR_TYPE } from '../wire/rr-type.ts';
import type { ChaosIdentity } from './chaos-identity.ts';

/** Everything a stage reads or writes; one object per call site, reused between queries. */
export interface AnswerContext {
  readonly query: ParsedQuery;
  transport: 'udp' | 'tcp';
  readonly plan: AnswerPlan;
  readonly scratch: ResolverScratch;
  /** The query name as a LookupName (owner null = written as a pointer to the question). */
  readonly qname: LookupName;
  /** Health, PoP, locator and random source for load balancer hostnames; null = none steered. */
  steering?: SteeringRuntime | null;
  /** The query's source address (the resolver), for steering; null when unknown. */
  clientAddress?: string | null;
  /** SCOPE PREFIX-LENGTH for the ECS echo (RFC 7871 §7.2.1): set by steering, else 0. */
  ecsScope: number;
  /**
   * Set by the steering stage: the steered answer may be kept in an answer cache keyed by the
   * query's bytes (lastDnsDecisionKeepable); false for every other answer.
   */
  steeredKeepable: boolean;
  /** With steeredKeepable: the load-balancer answer count's token (LbAnswerCounts.tokenOf), else -1. */
  steeredToken: number;
  /** Identity and version answered in class CHAOS; null or absent = none (REFUSED). */
  chaos?: ChaosIdentity | null;
}

/** A stage either settles the answer (returns true) or passes to the next one. */
export interface AnswerStage {
  readonly name: string;
  run(ctx: AnswerContext, store: ZoneStore): boolean;
}

function settle(plan: AnswerPlan, kind: 'refused' | 'error', rcode: number): true {
  plan.kind = kind;
  plan.rcode = rcode;
  plan.aa = false;
  return true;
}

/**
 * Only classes IN and ANY hold data; CHAOS (RFC 1035 §3.2.4) is answered by its own stage; any
 * other class → REFUSED, whatever the opcode or type (Knot 3.2).
 */
const classStage: AnswerStage = {
  name: 'class',
  run: (ctx) => {
    const c = ctx.query.qclass;
    return c !== CLASS_IN && c !== CLASS_ANY && c !== CLASS_CH && settle(ctx.plan, 'refused', RCODE_REFUSED);
  },
};

/**
 * CHAOS class: a non-QUERY opcode, QTYPE 0, AXFR or IXFR → NOTIMP; TXT (or ANY) at id.server,
 * hostname.bind, version.server or version.bind → the configured identity or version (RFC 4892),
 * authoritative; everything else → REFUSED (checked with knotd 3.2, whose defaults are these
 * with `identity: ""`, `version: ""`).
 */
const chaosStage: AnswerStage = {
  name: 'chaos',
  run: (ctx) => {
    const q = ctx.query;
    if (q.qclass !== CLASS_CH) return false;
    if (
      q.opcode !== OPCODE_QUERY ||
      q.qtype === RR_TYPE.RESERVED_0 ||
      q.qtype === RR_TYPE.AXFR ||
      q.qtype === RR_TYPE.IXFR
    )
      return settle(ctx.plan, 'error', RCODE_NOTIMP);
    const known = q.qtype === RR_TYPE.TXT || q.qtype === RR_TYPE.ANY ? ctx.chaos?.answers : undefined;
    if (known !== undefined && known.size > 0) {
      const rrset = known.get(q.name.lower.toString('latin1', 0, q.qnameEnd - HEADER_SIZE));
      if (rrset !== undefined) {
        planAdd(ctx.plan, 0, null, rrset);
        ctx.plan.kind = 'found';
        ctx.plan.rcode = RCODE_NOERROR;
        ctx.plan.aa = true;
        return true;
      }
    }
    return settle(ctx.plan, 'refused', RCODE_REFUSED);
  },
};

/**
 * Opcodes (RFC 6895 §2.2), as Knot 3.2 without ACLs: NOTIFY (RFC 1996) → NOTAUTH; UPDATE (RFC 2136)
 * → NOTAUTH when the zone section asks for SOA (RFC 2136 §2.3), FORMERR otherwise; every other
 * opcode (IQUERY, STATUS, unassigned) → NOTIMP.
 */
const opcodeStage: AnswerStage = {
  name: 'opcode',
  run: (ctx) => {
    const q = ctx.query;
    switch (q.opcode) {
      case OPCODE_QUERY:
        return false;
      case OPCODE_NOTIFY:
        return settle(ctx.plan, 'error', RCODE_NOTAUTH);
      case OPCODE_UPDATE:
        return settle(ctx.plan, 'error', q.qtype === RR_TYPE.SOA ? RCODE_NOTAUTH : RCODE_FORMERR);
      default:
        return settle(ctx.plan, 'error', RCODE_NOTIMP);
    }
  },
};

/** QTYPE 0 is reserved (RFC 6895 §3.1) → NOTIMP, before any zone lookup (Knot 3.2). */
const reservedTypeStage: AnswerStage = {
  name: 'reserved-type',
  run: (ctx) => ctx.query.qtype === RR_TYPE.RESERVED_0 && settle(ctx.plan, 'error', RCODE_NOTIMP),
};

/** AXFR over UDP answers NOTIMP, as Knot does (RFC 5936 §4.2: transfers run over TCP only). */
const udpTransferStage: AnswerStage = {
  name: 'udp-transfer',
  run: (ctx) =>
    ctx.transport === 'udp' && ctx.query.qtype === RR_TYPE.AXFR && settle(ctx.plan, 'error', RCODE_NOTIMP),
};

/**
 * Closest served zone; a DS query belongs to the parent side of the cut (RFC 4035 §3.1.4.1), so it
 * is looked up from the parent name first, then from the name itself (as Knot).
 * Outside every served zone → REFUSED with Extended DNS Error 20 (Knot).
 */
const zoneStage: AnswerStage = {
  name: 'zone',
  run: (ctx, store) => {
    const name = ctx.query.name;
    const zone =
      ctx.query.qtype === RR_TYPE.DS && name.labels > 0
        ? (store.findZoneOfQuery(name, 1) ?? store.findZoneOfQuery(name, 0))
        : store.findZoneOfQuery(name, 0);
    if (!zone) {
      ctx.plan.edeNotAuthoritative = true;
      return settle(ctx.plan, 'refused', RCODE_REFUSED);
    }
    // The query's key of the apex equals the zone's: take the zone's own string, whose hash is
    // known and which later comparisons (the writer's compression) find identical at once.
    const apexAt = name.labels - zone.apexLabels;
    if (apexAt >= 0 && apexAt < name.labels) name.adopt(apexAt, zone.apexKey);
    ctx.plan.zone = zone;
    return false;
  },
};

/**
 * Zone transfers are not served yet: AXFR over TCP and IXFR → NOTAUTH, as Knot without a transfer
 * ACL — for any name, served or not (checked before the zone lookup, as Knot 3.2).
 */
const transferStage: AnswerStage = {
  name: 'transfer',
  run: (ctx) =>
    (ctx.query.qtype === RR_TYPE.AXFR || ctx.query.qtype === RR_TYPE.IXFR) &&
    settle(ctx.plan, 'error', RCODE_NOTAUTH),
};

/**
 * Fills `plan` (already reset, zone set) from a decision: the member's RRset (serve_last: the pool's
 * enabled members), NODATA with the capped SOA for no_members, SERVFAIL for all_unhealthy.
 */
function planSteeredAnswer(
  plan: AnswerPlan,
  compiled: CompiledLoadBalancer,
  decision: SteeringDecision,
  family: 4 | 6,
): void {
  plan.rcode = 0;
  plan.aa = true;
  if (decision.servfail) {
    plan.kind = 'error';
    plan.rcode = RCODE_SERVFAIL;
    plan.aa = false;
    return;
  }
  const rrset =
    decision.reason === 'all_unhealthy_serve_last' && decision.pool !== null
      ? compiled.poolRRsets.get(poolRRsetKey(decision.pool.id, family))
      : decision.members.length === 1
        ? compiled.memberRRsets.get(decision.members[0]!.id)
        : undefined;
  if (rrset !== undefined) {
    plan.kind = 'found';
    planAdd(plan, 0, null, rrset);
    return;
  }
  // Disabled or address-less members of the family only: NODATA (RFC 2308 §2.2), SOA from the zone.
  plan.kind = 'nodata';
  if (compiled.negativeSoa !== null && plan.zone !== null)
    planAdd(plan, 1, plan.zone.apex, compiled.negativeSoa);
}

/**
 * A and AAAA at an enabled load balancer's hostname: the answer comes from steer() (the function
 * the preview API calls), as pre-encoded member RRsets; other types fall through to the records.
 */
const steeringStage: AnswerStage = {
  name: 'steering',
  run: (ctx) => {
    const lbs = compiledSteering(ctx.plan.zone!);
    const qtype = ctx.query.qtype;
    if (!lbs || !ctx.steering || (qtype !== RR_TYPE.A && qtype !== RR_TYPE.AAAA)) return false;
    const lb = loadBalancerOfQuery(lbs, ctx.query.name);
    if (lb === undefined) return false;
    const family = qtype === RR_TYPE.A ? 4 : 6;
    ctx.plan.steered = true;
    const decision = steerDnsQuery(lb, family, ctx.steering, ctx.query.ecs, ctx.clientAddress ?? null);
    const answers = ctx.steering.answers;
    if (answers !== null) answers.count(ctx.plan.zone!.domain, lb, decision);
    if (lastDnsDecisionKeepable()) {
      ctx.steeredKeepable = true;
      ctx.steeredToken = answers === null ? -1 : answers.tokenOf(ctx.plan.zone!.domain, lb, decision);
    }
    planSteeredAnswer(ctx.plan, lb, decision, family);
    ctx.ecsScope = decision.ecsScope;
    return true;
  },
};

const resolveStage: AnswerStage = {
  name: 'resolve',
  run: (ctx) => {
    resolveInZone(ctx.plan, ctx.plan.zone!, ctx.qname, ctx.query.qtype, ctx.scratch);
    return true;
  },
};

/** The fixed order in which a query is answered. */
export const ANSWER_STAGES: readonly AnswerStage[] = [
  classStage,
  chaosStage,
  opcodeStage,
  reservedTypeStage,
  udpTransferStage,
  transferStage,
  zoneStage,
  steeringStage,
  resolveStage,
];

/** Runs the stages on a parsed, well-formed query with one question; the plan says what to send. */
export function runAnswerPipeline(ctx: AnswerContext, store: ZoneStore): void {
  for (const stage of ANSWER_STAGES) if (stage.run(ctx, store)) return;
}
