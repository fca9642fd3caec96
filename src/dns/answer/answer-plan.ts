import type { WireName } from '../wire/wire-name.ts';
import type { RRset } from '../wire/rrset-encoding.ts';
import type { ZoneSnapshot } from '../zone/zone-snapshot.ts';

/** Closed set of results of the answer pipeline. */
export type AnswerKind =
  'found' | 'nodata' | 'nxdomain' | 'delegation' | 'cname-follow' | 'truncated' | 'refused' | 'error';

/**
 * One section of a planned response: parallel arrays reused between queries (no per-RR objects);
 * entries [0, count) are this query's, anything beyond is stale and never read.
 */
export interface PlanSection {
  count: number;
  /** null owner: the query name (written as a pointer to the question). */
  readonly owners: (WireName | null)[];
  readonly sets: RRset[];
  /** mandatory[i]: the RRset must fit or the response is truncated (referral glue, RFC 1034 §4.3.2 step 3b). */
  readonly mandatory: boolean[];
}

/** What to answer, before serialization. One object per call site, reset by resetPlan(). */
export interface AnswerPlan {
  kind: AnswerKind;
  /** For 'cname-follow': how the chain ended. */
  chainEnd: 'found' | 'nodata' | 'nxdomain' | 'delegation' | 'stopped';
  rcode: number;
  aa: boolean;
  /** The answer was synthesized from a wildcard (RFC 4592). */
  wildcard: boolean;
  /** Add Extended DNS Error 20 "Not Authoritative" (RFC 8914), as Knot does for names it does not serve. */
  edeNotAuthoritative: boolean;
  /** Answered by a load balancer's steering (health, client and chance decide, not the query alone). */
  steered: boolean;
  zone: ZoneSnapshot | null;
  readonly sections: readonly [PlanSection, PlanSection, PlanSection];
  /** Authority records kept as answer bytes, written after sections[1] (see ReadyRecords). */
  readonly ready: ReadyRecords;
}

/**
 * NSEC3 proofs with their RRSIGs as ready bytes (nsec3-ready-records.ts): entry i is
 * bytes[at[i], at[i] + length[i]), two RRs each, for a zone of `apexLabels` labels.
 */
export interface ReadyRecords {
  count: number;
  bytes: Uint8Array;
  readonly at: Int32Array;
  readonly length: Int32Array;
  apexLabels: number;
}

/** At most three NSEC3 records prove a denial (RFC 5155 §7.2.2). */
const READY_MAX = 3;

export function createPlan(): AnswerPlan {
  const s = (): PlanSection => ({ count: 0, owners: [], sets: [], mandatory: [] });
  return {
    kind: 'error',
    chainEnd: 'stopped',
    rcode: 0,
    aa: false,
    wildcard: false,
    edeNotAuthoritative: false,
    steered: false,
    zone: null,
    sections: [s(), s(), s()],
    ready: {
      count: 0,
      bytes: new Uint8Array(0),
      at: new Int32Array(READY_MAX),
      length: new Int32Array(READY_MAX),
      apexLabels: 0,
    },
  };
}

export function resetPlan(p: AnswerPlan): void {
  p.kind = 'error';
  p.chainEnd = 'stopped';
  p.rcode = 0;
  p.aa = false;
  p.wildcard = false;
  p.edeNotAuthoritative = false;
  p.steered = false;
  p.zone = null;
  p.sections[0].count = 0;
  p.sections[1].count = 0;
  p.sections[2].count = 0;
  p.ready.count = 0;
}

function push(s: PlanSection, owner: WireName | null, rrset: RRset, mandatory: boolean): void {
  const i = s.count++;
  s.owners[i] = owner;
  s.sets[i] = rrset;
  s.mandatory[i] = mandatory;
}

function holds(s: PlanSection, rrset: RRset): boolean {
  for (let i = 0; i < s.count; i++) if (s.sets[i] === rrset) return true;
  return false;
}

export function planAdd(p: AnswerPlan, section: 0 | 1 | 2, owner: WireName | null, rrset: RRset): void {
  push(p.sections[section], owner, rrset, section !== 2);
}

/** True when `rrset` is already planned in `section` (Knot puts an RRset into a message once). */
export function planHas(p: AnswerPlan, section: 0 | 1 | 2, rrset: RRset): boolean {
  return holds(p.sections[section], rrset);
}

/** Adds the precomputed additional data of `rrset` (A/AAAA of NS/MX/SRV targets), without duplicates. */
export function planAddAdditional(p: AnswerPlan, rrset: RRset): void {
  const extra = rrset.additional;
  if (extra.length === 0) return;
  const s = p.sections[2];
  for (let i = 0; i < extra.length; i++) {
    const e = extra[i]!;
    if (!holds(s, e.rrset)) push(s, e.owner, e.rrset, e.glue);
  }
}
