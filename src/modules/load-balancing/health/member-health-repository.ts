import { sql, type Kysely, type Transaction } from 'kysely';
import type { Verdict } from '../../../health/health-decision.ts';
import type {
  LoadBalancingTables,
  MemberHealthChangeRow,
  MemberProbeRow,
  MemberRow,
  PoolRow,
} from '../load-balancing-tables.ts';

type Db = Kysely<LoadBalancingTables> | Transaction<LoadBalancingTables>;

/** The member columns a probe needs. */
export type TargetColumns = Pick<
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

/** A member's decided health, as the next decision starts from it, with its pool's flap damping. */
export type MemberHealthState = Pick<
  MemberRow,
  'id' | 'health_status' | 'health_streak' | 'health_reset_at'
> &
  Pick<PoolRow, 'health_fall' | 'health_rise'>;

/** Members as the health checkers see them, their probes by PoP and their health changes. */
export class MemberHealthRepository {
  constructor(private readonly db: Db) {}

  /** Runs `work` in one transaction on a repository bound to it. */
  async inTransaction<T>(work: (repo: MemberHealthRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new MemberHealthRepository(trx)));
  }

  /** Every member whose health mode is one of `modes`, by id. */
  async targets(modes: readonly string[]): Promise<TargetColumns[]> {
    return this.db
      .selectFrom('load_balancing_members')
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
      .where('health_mode', 'in', [...modes])
      .orderBy('id')
      .execute();
  }

  /**
   * The member's health and its pool's damping, the member's row locked for the rest of the
   * transaction (checkers serialise on it; the pool's row is read, not locked).
   */
  async lockHealth(memberId: number): Promise<MemberHealthState | null> {
    const row = await this.db
      .selectFrom('load_balancing_members as m')
      .innerJoin('load_balancing_pools as p', 'p.id', 'm.pool_id')
      .select([
        'm.id',
        'm.health_status',
        'm.health_streak',
        'm.health_reset_at',
        'p.health_fall',
        'p.health_rise',
      ])
      .where('m.id', '=', memberId)
      .forUpdate('m')
      .executeTakeFirst();
    return row ?? null;
  }

  async insertProbe(probe: Omit<MemberProbeRow, 'id'>): Promise<void> {
    await this.db.insertInto('load_balancing_member_probes').values(probe).execute();
  }

  /** The latest probe of each PoP at or after `since`. */
  async latestByPop(memberId: number, since: Date): Promise<{ pop: string; status: Verdict }[]> {
    const { rows } = await sql<{ pop: string; status: Verdict }>`
      SELECT DISTINCT ON (pop) pop, status FROM load_balancing_member_probes
       WHERE member_id = ${memberId} AND at >= ${since}
       ORDER BY pop, at DESC, id DESC`.execute(this.db);
    return rows;
  }

  async setHealth(
    memberId: number,
    health: Pick<MemberRow, 'health_status' | 'health_streak' | 'last_check_at' | 'last_error'>,
  ): Promise<void> {
    await this.db.updateTable('load_balancing_members').set(health).where('id', '=', memberId).execute();
  }

  async insertChange(change: Omit<MemberHealthChangeRow, 'id'>): Promise<void> {
    await this.db.insertInto('load_balancing_member_health_changes').values(change).execute();
  }

  /** Deletes the member's probes and changes older than `before` (an index range each). */
  async trimHistory(memberId: number, before: Date): Promise<void> {
    await this.db
      .deleteFrom('load_balancing_member_probes')
      .where('member_id', '=', memberId)
      .where('at', '<', before)
      .execute();
    await this.db
      .deleteFrom('load_balancing_member_health_changes')
      .where('member_id', '=', memberId)
      .where('at', '<', before)
      .execute();
  }

  /** The member's latest probes, newest first. */
  async probes(memberId: number, limit: number) {
    return this.db
      .selectFrom('load_balancing_member_probes')
      .select(['at', 'pop', 'status', 'latency_ms', 'error'])
      .where('member_id', '=', memberId)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /** The member's latest health changes, newest first. */
  async changes(memberId: number, limit: number) {
    return this.db
      .selectFrom('load_balancing_member_health_changes')
      .select(['at', 'from_status', 'to_status', 'reason'])
      .where('member_id', '=', memberId)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }
}
