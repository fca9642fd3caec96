import { sql, type Kysely, type Transaction } from 'kysely';
import type { MemberHealth } from '../../../dns/index.ts';
import type { DnsTables, MemberRow } from '../dns-tables.ts';
import type { MemberValues } from './member-input.ts';

type Db = Kysely<DnsTables> | Transaction<DnsTables>;

const HEALTH_WORDS: ReadonlySet<string> = new Set(['unknown', 'healthy', 'unhealthy']);
/** A stored `health_status`; anything unexpected in the column reads as `unknown`. */
export const healthWord = (s: string): MemberHealth =>
  HEALTH_WORDS.has(s) ? (s as MemberHealth) : 'unknown';

/** Members (origins) of the zones' pools; writes run inside the zone's change (withTx). */
export class MembersRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<DnsTables>): MembersRepository {
    return new MembersRepository(trx);
  }

  /** The zone's members, by pool then id. */
  async listOfZone(zoneId: number): Promise<MemberRow[]> {
    return this.db
      .selectFrom('dns_lb_members')
      .selectAll()
      .where('zone_id', '=', zoneId)
      .orderBy('pool_id')
      .orderBy('id')
      .execute();
  }

  async listOfPool(poolId: number): Promise<MemberRow[]> {
    return this.db
      .selectFrom('dns_lb_members')
      .selectAll()
      .where('pool_id', '=', poolId)
      .orderBy('id')
      .execute();
  }

  /** Stored health of the zone's members, member id → status. */
  async healthOfZone(zoneId: number): Promise<Map<number, MemberHealth>> {
    const rows = await this.db
      .selectFrom('dns_lb_members')
      .select(['id', 'health_status'])
      .where('zone_id', '=', zoneId)
      .execute();
    return new Map(rows.map((r) => [Number(r.id), healthWord(r.health_status)]));
  }

  /**
   * Every member's stored health_status (member id → status), for the data plane to seed its
   * health view at start; anything unexpected reads as `unknown`.
   */
  async healthOfAll(): Promise<Map<number, MemberHealth>> {
    const rows = await this.db.selectFrom('dns_lb_members').select(['id', 'health_status']).execute();
    return new Map(rows.map((r) => [Number(r.id), healthWord(r.health_status)]));
  }

  async find(poolId: number, memberId: number): Promise<MemberRow | null> {
    const row = await this.db
      .selectFrom('dns_lb_members')
      .selectAll()
      .where('pool_id', '=', poolId)
      .where('id', '=', memberId)
      .executeTakeFirst();
    return row ?? null;
  }

  async count(poolId: number): Promise<number> {
    const row = await this.db
      .selectFrom('dns_lb_members')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('pool_id', '=', poolId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insert(zoneId: number, poolId: number, values: MemberValues): Promise<MemberRow> {
    return this.db
      .insertInto('dns_lb_members')
      .values({ ...values, zone_id: zoneId, pool_id: poolId } as never)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async update(memberId: number, values: Partial<MemberRow>): Promise<MemberRow> {
    return this.db
      .updateTable('dns_lb_members')
      .set({ ...values, updated_at: sql<Date>`now()` } as never)
      .where('id', '=', memberId)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async delete(memberId: number): Promise<void> {
    await this.db.deleteFrom('dns_lb_members').where('id', '=', memberId).execute();
  }
}
