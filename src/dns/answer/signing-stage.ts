/**
 * The signing stage of the answer pipeline: runs after resolution when the query set DO (RFC 3225
 * §3) and the zone is signed. Refusals and errors carry no zone data and are not signed.
 */
import type { RRset } from '../wire/rrset-encoding.ts';
import { signingFor, zoneDnssec } from '../dnssec/signing-registry.ts';
import type { SynthesizedNames } from '../dnssec/zone-signing.ts';
import { compiledSteering } from '../steering/steering-compiler.ts';
import type { ZoneSnapshot } from '../zone/zone-snapshot.ts';
import type { AnswerPlan } from './answer-plan.ts';
import type { QueryName } from '../wire/message/query-name.ts';
import { signPlan } from './answer-signer.ts';

export interface SignableQuery {
  readonly ednsDo: boolean;
  /** The query name; its key(0) is the whole name's key (see WireName). */
  readonly name: Pick<QueryName, 'key'>;
  readonly qtype: number;
}

/**
 * Load-balanced names answer A/AAAA from their pools: those types go in their NSEC bitmaps, and
 * their compiled RRsets are signed like static ones.
 */
function steeringNames(zone: ZoneSnapshot): SynthesizedNames {
  const types = new Map<string, number[]>();
  const rrsets: RRset[] = [];
  for (const [key, lb] of compiledSteering(zone) ?? []) {
    const seen = new Set<number>();
    for (const rs of lb.poolRRsets.values()) {
      seen.add(rs.type);
      rrsets.push(rs);
    }
    for (const rs of lb.memberRRsets.values()) {
      seen.add(rs.type);
      rrsets.push(rs);
    }
    types.set(
      key,
      [...seen].sort((a, b) => a - b),
    );
  }
  return { types, rrsets };
}

export function signIfRequested(plan: AnswerPlan, query: SignableQuery): void {
  const zone = plan.zone;
  if (!query.ednsDo || zone === null || !zoneDnssec(zone)) return;
  if (plan.kind === 'refused' || plan.kind === 'error' || plan.kind === 'truncated') return;
  const signing = signingFor(zone, steeringNames);
  if (signing !== null) signPlan(plan, zone, signing, query.name.key(0), query.qtype);
}
