import type { Kysely } from 'kysely';
import type { MemberHealth } from '../../../dns/index.ts';
import type { LoadBalancerRow, LoadBalancingTables, MemberRow, PoolRow } from '../load-balancing-tables.ts';
import { healthWord } from '../shared/member-health-word.ts';

/** Pools, members and load balancers whole, of one zone or (zoneId undefined) of every zone. */
export class SteeringRepository {
  constructor(private readonly db: Kysely<LoadBalancingTables>) {}

  async pools(zoneId?: number): Promise<PoolRow[]> {
    let q = this.db.selectFrom('load_balancing_pools').selectAll().orderBy('id');
    if (zoneId !== undefined) q = q.where('zone_id', '=', zoneId);
    return q.execute();
  }

  async members(zoneId?: number): Promise<MemberRow[]> {
    let q = this.db.selectFrom('load_balancing_members').selectAll().orderBy('pool_id').orderBy('id');
    if (zoneId !== undefined) q = q.where('zone_id', '=', zoneId);
    return q.execute();
  }

  async loadBalancers(zoneId?: number): Promise<LoadBalancerRow[]> {
    let q = this.db.selectFrom('load_balancing_load_balancers').selectAll().orderBy('id');
    if (zoneId !== undefined) q = q.where('zone_id', '=', zoneId);
    return q.execute();
  }

  /**
   * Every member's stored health_status (member id → status), for the data plane to seed its
   * health view at start; anything unexpected reads as `unknown`.
   */
  async memberHealth(): Promise<Map<number, MemberHealth>> {
    const rows = await this.db.selectFrom('load_balancing_members').select(['id', 'health_status']).execute();
    return new Map(rows.map((r) => [Number(r.id), healthWord(r.health_status)]));
  }

  async healthModes(zoneId: number): Promise<Map<number, string>> {
    const rows = await this.db
      .selectFrom('load_balancing_members')
      .select(['id', 'health_mode'])
      .where('zone_id', '=', zoneId)
      .execute();
    return new Map(rows.map((m) => [Number(m.id), m.health_mode]));
  }
}
