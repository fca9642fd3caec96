import { sql, type Kysely, type Transaction } from 'kysely';
import type { DeliveryRow, WebhooksTables } from '../webhooks-tables.ts';

type Tables = WebhooksTables;
type Db = Kysely<Tables> | Transaction<Tables>;

export type NewDelivery = Pick<
  DeliveryRow,
  | 'target_kind'
  | 'target_id'
  | 'policy'
  | 'event_id'
  | 'event_name'
  | 'body'
  | 'next_attempt_at'
  | 'created_at'
>;

/**
 * The engine's deliveries, claimed with a lease, so several processes share the work without
 * taking the same row (the outbox events they come from are the kernel's: claimEvents).
 */
export class DeliveriesRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<Tables>): DeliveriesRepository {
    return new DeliveriesRepository(trx);
  }

  async insert(rows: readonly NewDelivery[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db
      .insertInto('webhooks_deliveries')
      .values(rows as never)
      .execute();
  }

  /**
   * Takes up to `limit` due attempts for `claim` until `leaseUntil`: pending, due, and not held by
   * a live claim. A process that dies mid-send leaves its rows to be taken again after the lease.
   */
  async claimDue(now: Date, leaseUntil: Date, claim: string, limit: number): Promise<DeliveryRow[]> {
    const rows = await sql<DeliveryRow>`
      UPDATE webhooks_deliveries SET locked_until = ${leaseUntil}, claimed_by = ${claim}
      WHERE id IN (
        SELECT id FROM webhooks_deliveries
        WHERE status = 'pending' AND next_attempt_at <= ${now} AND (locked_until IS NULL OR locked_until <= ${now})
        ORDER BY next_attempt_at, id
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED
      )
      RETURNING *`.execute(this.db);
    return rows.rows;
  }

  /** Records an attempt's outcome, if the claim is still this one's (true when recorded). */
  async finishAttempt(
    id: number,
    claim: string,
    set: Partial<Pick<DeliveryRow, 'attempts' | 'status' | 'next_attempt_at' | 'last_error' | 'finished_at'>>,
  ): Promise<boolean> {
    const row = await this.db
      .updateTable('webhooks_deliveries')
      .set({ ...set, locked_until: null, claimed_by: null })
      .where('id', '=', id)
      .where('claimed_by', '=', claim)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Records successful attempts of one claim together; answers the rows recorded. */
  async finishDelivered(
    ids: readonly number[],
    claim: string,
    at: Date,
  ): Promise<Pick<DeliveryRow, 'target_kind' | 'target_id'>[]> {
    if (ids.length === 0) return [];
    return this.db
      .updateTable('webhooks_deliveries')
      .set({
        status: 'delivered',
        attempts: sql`attempts + 1`,
        finished_at: at,
        last_error: null,
        locked_until: null,
        claimed_by: null,
      })
      .where('id', 'in', ids)
      .where('claimed_by', '=', claim)
      .returning(['target_kind', 'target_id'])
      .execute();
  }

  /** A disabled or deleted target: its waiting deliveries stop. */
  async stopPending(kind: string, targetId: number, at: Date): Promise<number> {
    const rows = await this.db
      .updateTable('webhooks_deliveries')
      .set({ status: 'stopped', finished_at: at, locked_until: null, claimed_by: null })
      .where('target_kind', '=', kind)
      .where('target_id', '=', targetId)
      .where('status', '=', 'pending')
      .returning('id')
      .execute();
    return rows.length;
  }

  async pendingCount(): Promise<number> {
    const row = await this.db
      .selectFrom('webhooks_deliveries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
