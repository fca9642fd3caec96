import { sql, type Kysely, type Transaction } from 'kysely';
import type { MemberHealth } from '../../../dns/index.ts';
import type { DnsTables, MemberRow } from '../dns-tables.ts';
import type { MemberValues } from './member-input.ts';

type Db = Kysely<DnsTables> | Transaction<DnsTables>;

const HEALTH_WORDS: ReadonlySet<string> = new Set(['unknown', 'healthy', 'unhealthy']);
/** Anything unexpected in the column reads as `unknown`. */
const healthWord = (s: string): MemberHealth => (HEALTH_WORDS.has(s) ? (s as MemberHealth) : 'unknown');

export class MembersRepository {
  constructor(private readonly db: Kysely<DnsTables>) {}

  /** The zone's members, by pool then id. */
  async listOfZone(zoneId: number, db: Db = this.db): Promise<MemberRow[]> {
    return db
      .selectFrom('dns_lb_members')
      .selectAll()
      .where('zone_id', '=', zoneId)
      .orderBy('pool_id')
      .orderBy('id')
      .execute();
  }

  async listOfPool(poolId: number, db: Db = this.db): Promise<MemberRow[]> {
    return db.selectFrom('dns_lb_members').selectAll().where('pool_id', '=', poolId).orderBy('id').execute();
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

  async find(db: Db, poolId: number, memberId: number): Promise<MemberRow | null> {
    const row = await db
      .selectFrom('dns_lb_members')
      .selectAll()
      .where('pool_id', '=', poolId)
      .where('id', '=', memberId)
      .executeTakeFirst();
    return row ?? null;
  }

  async count(db: Db, poolId: number): Promise<number> {
    const row = await db
      .selectFrom('dns_lb_members')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('pool_id', '=', poolId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insert(db: Db, zoneId: number, poolId: number, values: MemberValues): Promise<MemberRow> {
    return db
      .insertInto('dns_lb_members')
      .values({ ...values, zone_id: zoneId, pool_id: poolId } as never)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async update(db: Db, memberId: number, values: Partial<MemberRow>): Promise<MemberRow> {
    return db
      .updateTable('dns_lb_members')
      .set({ ...values, updated_at: sql<Date>`now()` } as never)
      .where('id', '=', memberId)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async delete(db: Db, memberId: number): Promise<void> {
    await db.deleteFrom('dns_lb_members').where('id', '=', memberId).execute();
  }
}

/**
 * Every member's stored health_status (member id → status), for the data plane to seed its
 * health view at start; anything unexpected reads as `unknown`.
 */
export async function readMemberHealth(db: Kysely<DnsTables>): Promise<Map<number, MemberHealth>> {
  const rows = await db.selectFrom('dns_lb_members').select(['id', 'health_status']).execute();
  return new Map(rows.map((r) => [Number(r.id), healthWord(r.health_status)]));
}
