/**
 * What the load-balancing module offers the node roles: the steering a DNS node attaches to the
 * zones and the member health it answers with, and what a checker node probes and where results go.
 */
import type { MemberHealth } from '../../dns/index.ts';
import type { MemberSource, MemberStatusSink } from '../../health/health-checker.ts';
import type { MemberHealthEvent } from '../../health/member-health-channel.ts';
import type { TargetGuard } from '../../health/target-guard.ts';
import type { Unsubscribe } from '../../kernel/events/domain-events.ts';
import type { ZoneSteeringSource } from '../dns/index.ts';
import type { LoadBalancingSettings } from './load-balancing-config.ts';

/** What a DNS node reads of load balancing. */
export interface LoadBalancingPublishing {
  /** Every zone's pools and load balancers, for the DNS module's published zones. */
  readonly steering: ZoneSteeringSource;
  /** Every member's stored health (member id → status): the node's health view at start. */
  memberHealth(): Promise<Map<number, MemberHealth>>;
  /** Every change of a member's health, applied in place (no zone reload). */
  onMemberHealthChanged(handler: (event: MemberHealthEvent) => void): Promise<Unsubscribe>;
}

/** What a checker node runs: the members to probe, where results go, and how probes may go out. */
export interface MemberHealthChecks {
  readonly store: MemberSource & MemberStatusSink;
  /** Refuses probes of private and reserved networks unless HEALTH_ALLOW_PRIVATE_TARGETS. */
  readonly guard: TargetGuard;
  readonly settings: LoadBalancingSettings;
}
