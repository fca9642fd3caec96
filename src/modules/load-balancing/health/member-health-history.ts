import type { MemberHealthRepository } from './member-health-repository.ts';
import type { HealthHistoryView } from './health-views.ts';

/** A member's probes (by PoP) and decision changes as the checkers stored them (7 days are kept). */
export async function readHealthHistory(
  repo: MemberHealthRepository,
  memberId: number,
  limit: number,
): Promise<HealthHistoryView> {
  const [probes, changes] = await Promise.all([repo.probes(memberId, limit), repo.changes(memberId, limit)]);
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
