import { sql, type Kysely } from 'kysely';
import type { MemberSource, MemberStatusSink } from '../../../health/health-checker.ts';
import type { HealthStatus, HealthTarget, ProbeMode, ProbeResult } from '../../../health/health-target.ts';
import type { DnsTables, MemberRow } from '../dns-tables.ts';

const PROBE_MODES: readonly ProbeMode[] = ['http', 'https', 'tcp'];
const STATUSES: ReadonlySet<string> = new Set(['unknown', 'healthy', 'unhealthy']);

type TargetColumns = Pick<
  MemberRow,
  | 'id'
  | 'zone_id'
  | 'pool_id'
  | 'address'
  | 'health_mode'
  | 'health_path'
  | 'health_port'
  | 'health_timeout_s'
>;

/** The probe a member asks for; null for `health_mode` none (healthy without checks). */
export function healthTargetOf(row: TargetColumns): HealthTarget | null {
  if (!(PROBE_MODES as readonly string[]).includes(row.health_mode)) return null;
  return {
    memberId: Number(row.id),
    zoneId: Number(row.zone_id),
    poolId: Number(row.pool_id),
    address: row.address,
    mode: row.health_mode as ProbeMode,
    path: row.health_path === '' ? '/' : row.health_path,
    port: row.health_port,
    timeoutS: row.health_timeout_s,
  };
}

/**
 * The members table as the health checker sees it: which members to probe (every member with a
 * check, enabled or not, so a re-enabled origin comes back with a fresh status) and where results
 * go. Writing a result is not a zone change: the serial and updated_at stay, and the data plane
 * learns of it from the member-health channel, not from a zone reload.
 */
export class DbMemberHealthStore implements MemberSource, MemberStatusSink {
  constructor(private readonly db: Kysely<DnsTables>) {}

  async listTargets(): Promise<HealthTarget[]> {
    const rows = await this.db
      .selectFrom('dns_lb_members')
      .select([
        'id',
        'zone_id',
        'pool_id',
        'address',
        'health_mode',
        'health_path',
        'health_port',
        'health_timeout_s',
      ])
      .where('health_mode', 'in', [...PROBE_MODES])
      .orderBy('id')
      .execute();
    return rows.map(healthTargetOf).filter((t): t is HealthTarget => t !== null);
  }

  /** Stores the result and answers the status it replaced (row-locked: concurrent writers serialise). */
  async record(target: HealthTarget, result: ProbeResult): Promise<HealthStatus | null> {
    const { rows } = await sql<{ previous: string }>`
      UPDATE dns_lb_members AS m
         SET health_status = ${result.status},
             last_check_at = ${new Date(result.checkedAt)},
             last_error = ${result.error}
        FROM (SELECT id, health_status FROM dns_lb_members WHERE id = ${target.memberId} FOR UPDATE) AS old
       WHERE m.id = old.id
   RETURNING old.health_status AS previous`.execute(this.db);
    const previous = rows[0]?.previous;
    if (previous === undefined) return null;
    return (STATUSES.has(previous) ? previous : 'unknown') as HealthStatus;
  }
}
