import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type { MemberRow } from '../load-balancing-tables.ts';

/**
 * A member (origin) as the API shows it: its row but the zone id (the pool's says it) and the
 * checker's bookkeeping (damping streak, reset time).
 */
export type MemberView = JsonView<Omit<MemberRow, 'zone_id' | 'health_streak' | 'health_reset_at'>>;

const iso = (d: Date | string): string => new Date(d).toISOString();

export function memberView(m: MemberRow): MemberView {
  return {
    id: m.id,
    pool_id: m.pool_id,
    address: m.address,
    address_type: m.address_type,
    weight: m.weight,
    priority: m.priority,
    enabled: m.enabled,
    health_mode: m.health_mode,
    health_path: m.health_path,
    health_port: m.health_port,
    health_interval_s: m.health_interval_s,
    health_timeout_s: m.health_timeout_s,
    health_status: m.health_status,
    last_check_at: m.last_check_at === null ? null : iso(m.last_check_at),
    last_error: m.last_error,
    created_at: iso(m.created_at),
    updated_at: iso(m.updated_at),
  };
}
