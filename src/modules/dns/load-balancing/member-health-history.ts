import type { Kysely } from 'kysely';
import type { DnsTables } from '../dns-tables.ts';

export interface ProbeView {
  at: string;
  pop: string;
  status: string;
  latency_ms: number | null;
  error: string | null;
}

export interface HealthChangeView {
  at: string;
  from: string;
  to: string;
  reason: string;
}

/** `GET .../members/{member_id}/health-history`: the latest probes and decision changes, newest first. */
export interface HealthHistoryView {
  member_id: number;
  probes: ProbeView[];
  changes: HealthChangeView[];
}

/** A member's probes (by PoP) and decision changes as the checkers stored them (7 days are kept). */
export async function readHealthHistory(
  db: Kysely<DnsTables>,
  memberId: number,
  limit: number,
): Promise<HealthHistoryView> {
  const [probes, changes] = await Promise.all([
    db
      .selectFrom('dns_lb_member_probes')
      .select(['at', 'pop', 'status', 'latency_ms', 'error'])
      .where('member_id', '=', memberId)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute(),
    db
      .selectFrom('dns_lb_member_health_changes')
      .select(['at', 'from_status', 'to_status', 'reason'])
      .where('member_id', '=', memberId)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute(),
  ]);
  return {
    member_id: memberId,
    probes: probes.map((p) => ({
      at: new Date(p.at).toISOString(),
      pop: p.pop,
      status: p.status,
      latency_ms: p.latency_ms,
      error: p.error,
    })),
    changes: changes.map((c) => ({
      at: new Date(c.at).toISOString(),
      from: c.from_status,
      to: c.to_status,
      reason: c.reason,
    })),
  };
}
