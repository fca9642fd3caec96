import type { HealthStatus } from './health-target.ts';

/**
 * Bus channel of member health changes: published by a checker when a probe changes a member's
 * stored status, applied by every DNS role to its health view (no snapshot rebuild).
 */
export const MEMBER_HEALTH_CHANNEL = 'dns.member-health';

export interface MemberHealthEvent {
  readonly memberId: number;
  readonly zoneId: number;
  readonly status: HealthStatus;
}

const STATUSES: ReadonlySet<string> = new Set(['unknown', 'healthy', 'unhealthy']);

/** The event when `message` is a well-formed one, else null (a bus delivers whatever was sent). */
export function parseMemberHealthEvent(message: unknown): MemberHealthEvent | null {
  if (typeof message !== 'object' || message === null) return null;
  const m = message as Record<string, unknown>;
  if (!Number.isInteger(m.memberId) || !Number.isInteger(m.zoneId)) return null;
  if (typeof m.status !== 'string' || !STATUSES.has(m.status)) return null;
  return { memberId: m.memberId as number, zoneId: m.zoneId as number, status: m.status as HealthStatus };
}
