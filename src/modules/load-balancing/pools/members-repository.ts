import { sql, type Kysely, type Transaction } from 'kysely';
import type { MemberHealth } from '../../../dns/index.ts';
import type { LoadBalancingTables, MemberRow } from '../load-balancing-tables.ts';
import type { MemberValues } from './member-input.ts';
import { healthWord } from '../shared/member-health-word.ts';

type Db = Kysely<LoadBalancingTables> | Transaction<LoadBalancingTables>;

/** Members (origins) of the zones' pools; writes run inside the zone's change (withTx). */
export class MembersRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<LoadBalancingTables>): MembersRepository {
    return new MembersRepository(trx);
  }

  /** The zone's members, by pool then id. */
  async listOfZone(zoneId: number): Promise<MemberRow[]> {
    return this.db
      .selectFrom('load_balancing_members')
      .selectAll()
      .where('zone_id', '=', zoneId)
      .orderBy('pool_id')
      .orderBy('id')
      .execute();
  }

  async listOfPool(poolId: number): Promise<MemberRow[]> {
    return this.db
      .selectFrom('load_balancing_members')
      .selectAll()
      .where('pool_id', '=', poolId)
      .orderBy('id')
      .execute();
  }

  /** Stored health of the zone's members, member id → status. */
  async healthOfZone(zoneId: number): Promise<Map<number, MemberHealth>> {
    const rows = await this.db
      .selectFrom('load_balancing_members')
      .select(['id', 'health_status'])
      .where('zone_id', '=', zoneId)
      .execute();
    return new Map(rows.map((r) => [Number(r.id), healthWord(r.health_status)]));
  }

  async find(poolId: number, memberId: number): Promise<MemberRow | null> {
    const row = await this.db
      .selectFrom('load_balancing_members')
      .selectAll()
      .where('pool_id', '=', poolId)
      .where('id', '=', memberId)
      .executeTakeFirst();
    return row ?? null;
  }

  async count(poolId: number): Promise<number> {
    const row = await this.db
      .selectFrom('load_balancing_members')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('pool_id', '=', poolId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insert(zoneId: number, poolId: number, values: MemberValues): Promise<MemberRow> {
    return this.db
      .insertInto('load_balancing_members')
      .values({ ...values, zone_id: zoneId, pool_id: poolId } as never)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async update(memberId: number, values: Partial<MemberRow>): Promise<MemberRow> {
    return this.db
      .updateTable('load_balancing_members')
      .set({ ...values, updated_at: sql<Date>`now()` } as never)
      .where('id', '=', memberId)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async delete(memberId: number): Promise<void> {
    await this.db.deleteFrom('load_balancing_members').where('id', '=', memberId).execute();
  }
}
