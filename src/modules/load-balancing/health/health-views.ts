import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type { MemberProbeRow } from '../load-balancing-tables.ts';

/** A member's health as the health routes answer it: a probe run now, and the history. */

/** Answer of `POST .../members/{member_id}/health-check`. */
export interface HealthCheckView {
  member_id: number;
  /** The member's decided status after this probe (quorum over PoPs, damping). */
  health_status: string;
  /** What this probe found. */
  probe_status: string;
  /** The PoP this probe counts for (the API process's POP). */
  pop: string;
  last_check_at: string;
  last_error: string | null;
  latency_ms: number | null;
}

/** One probe of the member, by the PoP that ran it. */
export type ProbeView = JsonView<Pick<MemberProbeRow, 'at' | 'pop' | 'status' | 'latency_ms' | 'error'>>;

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
