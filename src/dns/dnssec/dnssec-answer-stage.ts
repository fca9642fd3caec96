/**
 * The signing stage of the answer pipeline: runs after resolution when the query set DO (RFC 3225
 * §3) and the zone is signed. Refusals and errors carry no zone data and are not signed.
 */
import type { AnswerPlan } from '../answer/answer-plan.ts';
import type { ZoneSnapshot } from '../zone/zone-snapshot.ts';
import { signPlan } from './answer-signer.ts';
import { signingFor } from './signing-registry.ts';

export interface SignableQuery {
  readonly ednsDo: boolean;
  /** Name keys of the query name (see WireName); keys[0] is the whole name. */
  readonly keys: readonly string[];
  readonly qtype: number;
}

/** Load-balanced names answer A/AAAA from their pools: those types go in their NSEC bitmaps. */
function steeringTypes(zone: ZoneSnapshot): ReadonlyMap<string, readonly number[]> {
  const out = new Map<string, number[]>();
  for (const [key, lb] of zone.steering ?? []) {
    const types = new Set<number>();
    for (const rs of lb.poolRRsets.values()) types.add(rs.type);
    for (const rs of lb.memberRRsets.values()) types.add(rs.type);
    out.set(
      key,
      [...types].sort((a, b) => a - b),
    );
  }
  return out;
}

export function signIfRequested(plan: AnswerPlan, query: SignableQuery): void {
  const zone = plan.zone;
  if (!query.ednsDo || !zone?.dnssec) return;
  if (plan.kind === 'refused' || plan.kind === 'error' || plan.kind === 'truncated') return;
  const signing = signingFor(zone, steeringTypes);
  if (signing !== null) signPlan(plan, zone, signing, query.keys[0] ?? '', query.qtype);
}
