import type { AnswerPlan } from './answer-plan.ts';
import { planAdd, planAddAdditional, planHas } from './answer-plan.ts';
import type { WireName } from '../wire/wire-name.ts';
import { wireNameFromWire, wireSize } from '../wire/wire-name.ts';
import type { RRset } from '../wire/rrset-encoding.ts';
import type { ZoneNode, ZoneSnapshot } from '../zone/zone-snapshot.ts';
import type { QueryName } from '../wire/message/query-name.ts';
import { encodeRRset } from '../wire/rrset-encoding.ts';
import { NAME_MAX, RCODE_NXDOMAIN, RCODE_YXDOMAIN } from '../wire/message/message-constants.ts';
import { RR_TYPE } from '../wire/rr-type.ts';
import { NodeTable } from '../zone/node-table.ts';
import { PackedNodeTable } from '../zone/packed-node-table.ts';

/**
 * CNAME records placed in one answer before following stops (Knot 3.2 stops after five; the chain
 * is then answered as it stands, NOERROR).
 */
export const CNAME_CHAIN_MAX = 5;

/**
 * The name being resolved: the query name (`query` set, owner null) or a compiled name (`keys`,
 * `owner`); labelCount() and keyAt() read either.
 */
export interface LookupName {
  query: QueryName | null;
  /** A compiled name's suffix keys (WireName.keys); empty for the query name. */
  keys: readonly string[];
  owner: WireName | null;
  /**
   * Uncompressed wire of the query name (for DNAME synthesis) in [0, wireLength); for a compiled
   * name unused (its owner has it), so following a CNAME creates no view of the snapshot's bytes.
   */
  wire: Uint8Array;
  wireLength: number;
}

function labelCount(n: LookupName): number {
  return n.query !== null ? n.query.labels : n.keys.length;
}

/** Key of suffix i; for the query name made now (the first time it is needed). */
function keyAt(n: LookupName, i: number): string {
  return n.query !== null ? n.query.key(i) : n.keys[i]!;
}

const NO_WIRE = new Uint8Array(0);

function noCnameFollow(qtype: number): boolean {
  return qtype === RR_TYPE.CNAME || qtype === RR_TYPE.RRSIG || qtype === RR_TYPE.NSEC;
}

/**
 * Per-call-site scratch state for resolution: the query name when resolution started from it and
 * the keys of the compiled names visited, [0, visitedCount) (for CNAME loops); and the last zone
 * resolved in with its apex node and the apex's wildcard node (looked up once per snapshot: a
 * served snapshot's names do not change, a patch swaps in a new snapshot object).
 */
export interface ResolverScratch {
  visitedQuery: QueryName | null;
  readonly visited: string[];
  visitedCount: number;
  zone: ZoneSnapshot | null;
  apexNode: ZoneNode | undefined;
  apexWildcard: ZoneNode | undefined;
}

export function createResolverScratch(): ResolverScratch {
  return {
    visitedQuery: null,
    visited: [],
    visitedCount: 0,
    zone: null,
    apexNode: undefined,
    apexWildcard: undefined,
  };
}

function wasVisited(scratch: ResolverScratch, key: string): boolean {
  if (scratch.visitedQuery !== null && scratch.visitedQuery.equalsKey(0, key)) return true;
  for (let i = 0; i < scratch.visitedCount; i++) if (scratch.visited[i] === key) return true;
  return false;
}

function inZone(zone: ZoneSnapshot, keys: readonly string[]): boolean {
  const depth = keys.length - zone.apexLabels;
  if (depth < 0) return false;
  return zone.apexLabels === 0 || keys[depth] === zone.apexKey;
}

function negative(plan: AnswerPlan, zone: ZoneSnapshot, nx: boolean): void {
  if (zone.negativeSoa) planAdd(plan, 1, zone.apex, zone.negativeSoa);
  if (nx) plan.rcode = RCODE_NXDOMAIN;
}

/**
 * Referral (RFC 1034 §4.3.2 step 3b): the cut's NS in authority, glue in additional. AA stays set
 * when the referral ends a CNAME chain that started with authoritative data (Knot).
 */
function referral(plan: AnswerPlan, cut: ZoneNode, cnames: number): void {
  const ns = cut.rrset(RR_TYPE.NS)!;
  planAdd(plan, 1, cut.name, ns);
  planAddAdditional(plan, ns);
  if (cnames === 0) plan.aa = false;
  plan.chainEnd = 'delegation';
}

function synthCname(ttl: number, target: WireName): RRset {
  return encodeRRset(RR_TYPE.CNAME, ttl, [target.wire], [target]);
}

function fromWireName(n: WireName): LookupName {
  return { query: null, keys: n.keys, owner: n, wire: NO_WIRE, wireLength: wireSize(n) };
}

/**
 * Resolves `start` in `zone` (RFC 1034 §4.3.2 steps 3-6; RFC 4592 wildcards; RFC 6672 DNAME;
 * CNAME chains inside this zone only, as Knot). Fills plan sections, rcode, kind and chainEnd.
 */
export function resolveInZone(
  plan: AnswerPlan,
  zone: ZoneSnapshot,
  start: LookupName,
  qtype: number,
  scratch: ResolverScratch,
): void {
  scratch.visitedCount = 0;
  scratch.visitedQuery = start.query;
  const nodes = zone.nodes;
  if (scratch.zone !== zone) {
    scratch.zone = zone;
    scratch.apexNode = nodes.get(zone.apexKey);
    const apex = scratch.apexNode;
    scratch.apexWildcard = zone.hasWildcards && apex ? nodes.get(apex.wildcardKey()) : undefined;
  }
  const apexNode = scratch.apexNode;
  let cur = start;
  let cnames = 0;
  plan.aa = true;
  for (;;) {
    if (cur.query === null) scratch.visited[scratch.visitedCount++] = cur.keys[0] ?? '';
    const depth = labelCount(cur) - zone.apexLabels;
    let ce = apexNode;
    let exact: ZoneNode | undefined;
    let next: LookupName | null = null;
    let stop = false;
    let synthesized = false;
    // Walk down from the apex (i = depth) to the name (i = 0), stopping at a zone cut or a DNAME
    // (RFC 1034 §4.3.2 step 3; RFC 6672 §3.3).
    // The name itself, when the zone's filter says it is absent, is not looked up (node-table.ts).
    const absent =
      cur.query !== null &&
      (nodes instanceof NodeTable || nodes instanceof PackedNodeTable) &&
      !nodes.mayHave(cur.query.hash);
    for (let i = depth; i >= 0; i--) {
      const n = i === depth ? apexNode : i === 0 && absent ? undefined : nodes.get(keyAt(cur, i));
      if (!n) break;
      ce = n;
      if (i < depth && n.delegation && !(i === 0 && qtype === RR_TYPE.DS)) {
        referral(plan, n, cnames);
        stop = true;
        break;
      }
      const dname = i > 0 ? n.rrset(RR_TYPE.DNAME) : undefined;
      if (dname && dname.target) {
        // RFC 6672 §3.3: the DNAME (once per message, as Knot), then a CNAME synthesized with the
        // DNAME's TTL, then follow it.
        if (!planHas(plan, 0, dname)) planAdd(plan, 0, n.name, dname);
        const prefixLen = cur.wireLength - wireSize(n.name);
        const total = prefixLen + wireSize(dname.target);
        if (total > NAME_MAX) {
          // RFC 6672 §2.2: the synthesized name would be too long → YXDOMAIN, DNAME only. Knot 3.2
          // does so for a target outside the zone; for a target inside the zone it answers
          // NXDOMAIN with the DNAME and the SOA (observed with knotd; pinned by the corpus).
          if (inZone(zone, dname.target.keys)) {
            negative(plan, zone, true);
            plan.chainEnd = 'nxdomain';
          } else {
            plan.rcode = RCODE_YXDOMAIN;
            plan.chainEnd = 'found';
          }
          stop = true;
          break;
        }
        const wire = new Uint8Array(total);
        wire.set((cur.owner !== null ? cur.owner.wire : cur.wire).subarray(0, prefixLen), 0);
        wire.set(dname.target.wire, prefixLen);
        const target = wireNameFromWire(wire);
        planAdd(plan, 0, cur.owner, synthCname(dname.ttl, target));
        cnames++;
        // A CNAME query is answered by the synthesized CNAME itself (Knot does not follow it).
        if (qtype === RR_TYPE.CNAME) {
          plan.chainEnd = 'found';
          stop = true;
          break;
        }
        next = fromWireName(target);
        synthesized = true;
        break;
      }
      if (i === 0) exact = n;
    }
    if (stop) break;
    if (next === null) {
      let node = exact;
      if (!node && zone.hasWildcards && ce) {
        // RFC 4592 §3.3.1: the source of synthesis is "*." + the closest encloser.
        node = ce === apexNode ? scratch.apexWildcard : nodes.get(ce.wildcardKey());
        if (node) plan.wildcard = true;
        if (node && node.delegation && qtype !== RR_TYPE.DS) {
          // A wildcard owning NS (RFC 4592 §4.2): Knot refers with the NS RRset as it is, owner
          // "*.<closest encloser>", and its glue.
          referral(plan, node, cnames);
          break;
        }
      }
      if (!node) {
        negative(plan, zone, true);
        plan.chainEnd = 'nxdomain';
        break;
      }
      // Owner of what we answer: the name looked up (rewritten from the wildcard, RFC 4592 §3.4.3).
      const owner = cur.owner;
      if (qtype === RR_TYPE.ANY) {
        // RFC 8482 §4.1: one RRset; Knot picks the lowest type code and does not follow CNAMEs.
        const rs = node.lowest;
        if (rs) {
          planAdd(plan, 0, owner, rs);
          planAddAdditional(plan, rs);
          plan.chainEnd = 'found';
        } else {
          negative(plan, zone, false);
          plan.chainEnd = 'nodata';
        }
        break;
      }
      // Knot follows a CNAME for every type but CNAME, RRSIG and NSEC (those are looked up as is).
      const cname = noCnameFollow(qtype) ? undefined : node.rrset(RR_TYPE.CNAME);
      if (cname && cname.target) {
        planAdd(plan, 0, owner, cname);
        cnames++;
        next = fromWireName(cname.target);
      } else {
        const rs = node.rrset(qtype);
        if (rs) {
          planAdd(plan, 0, owner, rs);
          planAddAdditional(plan, rs);
          plan.chainEnd = 'found';
        } else {
          negative(plan, zone, false);
          plan.chainEnd = 'nodata';
        }
        break;
      }
    }
    // Follow (RFC 1034 §4.3.2 step 3a): stop at the chain limit, at a loop, or when the target
    // leaves this zone (Knot answers with the chain so far, NOERROR).
    // A CNAME already in the answer is a loop; a synthesized one is always new, so a DNAME loop runs
    // to the chain limit (Knot).
    if (
      cnames >= CNAME_CHAIN_MAX ||
      (!synthesized && wasVisited(scratch, next.keys[0] ?? '')) ||
      !inZone(zone, next.keys)
    ) {
      plan.chainEnd = 'stopped';
      break;
    }
    cur = next;
  }
  plan.kind = cnames > 0 ? 'cname-follow' : plan.chainEnd === 'stopped' ? 'found' : plan.chainEnd;
}
