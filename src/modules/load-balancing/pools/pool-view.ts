import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import { memberView, type MemberView } from './member-view.ts';
import type { LoadBalancerRow, MemberRow, PoolRow } from '../load-balancing-tables.ts';

/** An origin pool as the API shows it: its row, its members, their health, its hostname. */
export type PoolView = JsonView<PoolRow> & {
  hostname: string | null;
  members: MemberView[];
  healthy_members: number;
  total_members: number;
};

/** Enabled members that are not `unhealthy` (`unknown` counts as healthy, as load balancers treat it). */
const isHealthy = (m: MemberRow): boolean => m.enabled && m.health_status !== 'unhealthy';

/**
 * The pool with its members; `hostname` is that of the first load balancer (by id) whose
 * default pools hold the pool, else null.
 */
export function poolView(
  pool: PoolRow,
  members: readonly MemberRow[],
  lbs: readonly LoadBalancerRow[],
): PoolView {
  const own = members.filter((m) => Number(m.pool_id) === Number(pool.id));
  const lb = [...lbs].sort((a, b) => a.id - b.id).find((l) => l.default_pools.includes(Number(pool.id)));
  return {
    id: pool.id,
    zone_id: pool.zone_id,
    name: pool.name,
    description: pool.description,
    algorithm: pool.algorithm,
    ttl: pool.ttl,
    session_affinity: pool.session_affinity,
    primary_location_code: pool.primary_location_code,
    enabled: pool.enabled,
    health_fall: pool.health_fall === null ? null : Number(pool.health_fall),
    health_rise: pool.health_rise === null ? null : Number(pool.health_rise),
    hostname: lb?.hostname ?? null,
    members: own.map(memberView),
    healthy_members: own.filter(isHealthy).length,
    total_members: own.length,
    created_at: new Date(pool.created_at).toISOString(),
    updated_at: new Date(pool.updated_at).toISOString(),
  };
}
