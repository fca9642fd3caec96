import { sql, type Kysely, type Transaction } from 'kysely';
import type { CommerceCartCompletionRow, CommerceTables } from '../commerce-tables.ts';

type Db = Kysely<CommerceTables> | Transaction<CommerceTables>;

/** Completion attempts by Idempotency-Key, and the per-cart lock of a running completion. */
export class CompletionsRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<CommerceTables>): CompletionsRepository {
    return new CompletionsRepository(trx);
  }

  async byKey(orgId: number, key: string): Promise<CommerceCartCompletionRow | null> {
    const row = await this.db
      .selectFrom('commerce_cart_completions')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
    return row ?? null;
  }

  /** Records the key for this cart and body; false when the key was taken meanwhile. */
  async claimKey(
    orgId: number,
    key: string,
    cartId: number,
    requestHash: string,
    now: Date,
  ): Promise<boolean> {
    const made = await this.db
      .insertInto('commerce_cart_completions')
      .values({
        org_id: orgId,
        idempotency_key: key,
        cart_id: cartId,
        request_hash: requestHash,
        created_at: now,
      })
      .onConflict((oc) => oc.columns(['org_id', 'idempotency_key']).doNothing())
      .returning('cart_id')
      .executeTakeFirst();
    return made !== undefined;
  }

  async setOrder(orgId: number, key: string, orderId: number): Promise<void> {
    await this.db
      .updateTable('commerce_cart_completions')
      .set({ order_id: orderId })
      .where('org_id', '=', orgId)
      .where('idempotency_key', '=', key)
      .execute();
  }

  /**
   * Takes the cart's completion lock: true when taken, false while another completion holds it.
   * A lock older than `staleBefore` (a process that died mid-way) is taken over.
   */
  async lock(orgId: number, cartId: number, now: Date, staleBefore: Date): Promise<boolean> {
    const taken = await this.db
      .insertInto('commerce_cart_locks')
      .values({ cart_id: cartId, org_id: orgId, started_at: now })
      .onConflict((oc) =>
        oc
          .column('cart_id')
          .doUpdateSet({ started_at: now })
          .where(sql<boolean>`commerce_cart_locks.started_at < ${staleBefore}`),
      )
      .returning('cart_id')
      .executeTakeFirst();
    return taken !== undefined;
  }

  async unlock(cartId: number): Promise<void> {
    await this.db.deleteFrom('commerce_cart_locks').where('cart_id', '=', cartId).execute();
  }

  /** The order a cart placed, if any. */
  async orderOfCart(orgId: number, cartId: number): Promise<number | null> {
    const row = await this.db
      .selectFrom('commerce_orders')
      .select('id')
      .where('org_id', '=', orgId)
      .where('cart_id', '=', cartId)
      .executeTakeFirst();
    return row === undefined ? null : Number(row.id);
  }

  /** Of `variantIds`, those whose stock is counted: inventory managed, no backorder. */
  async managedVariants(variantIds: readonly number[]): Promise<Set<number>> {
    const rows = await this.db
      .selectFrom('commerce_product_variants')
      .select('id')
      .where('id', 'in', variantIds)
      .where('manage_inventory', '=', true)
      .where('allow_backorder', '=', false)
      .execute();
    return new Set(rows.map((v) => Number(v.id)));
  }
}
