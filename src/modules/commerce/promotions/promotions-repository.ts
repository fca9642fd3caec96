import { sql, type Insertable, type Kysely, type Transaction, type Updateable } from 'kysely';
import type { CommerceTables } from '../commerce-tables.ts';

type Db = Kysely<CommerceTables> | Transaction<CommerceTables>;
type Table = CommerceTables['commerce_promotions'];

/** A promotion as read: `value` as decimal text, JSON columns parsed. */
export type PromotionRow = Omit<Table, 'value'> & { value: string };

export type PromotionInsert = Omit<Insertable<Table>, 'id' | 'used'>;
export type PromotionPatch = Omit<Updateable<Table>, 'id' | 'org_id' | 'created_at' | 'used'>;

const json = (v: unknown) => sql`${JSON.stringify(v)}::jsonb`;

/** The promotions' SQL: the administration's rows, the codes on carts, and usage at completion. */
export class PromotionsRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<CommerceTables>): PromotionsRepository {
    return new PromotionsRepository(trx);
  }

  private select() {
    return this.db
      .selectFrom('commerce_promotions as p')
      .selectAll('p')
      .select(sql<string>`p.value::text`.as('value'));
  }

  async byId(orgId: number, id: number): Promise<PromotionRow | null> {
    const row = await this.select().where('p.org_id', '=', orgId).where('p.id', '=', id).executeTakeFirst();
    return (row as PromotionRow | undefined) ?? null;
  }

  /** The promotion of a code, in any case. */
  async byCode(orgId: number, code: string): Promise<PromotionRow | null> {
    const row = await this.select()
      .where('p.org_id', '=', orgId)
      .where(sql`lower(p.code)`, '=', code.trim().toLowerCase())
      .executeTakeFirst();
    return (row as PromotionRow | undefined) ?? null;
  }

  async insert(row: PromotionInsert): Promise<number> {
    const made = await this.db
      .insertInto('commerce_promotions')
      .values(encode(row) as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(made.id);
  }

  async update(orgId: number, id: number, patch: PromotionPatch): Promise<void> {
    await this.db
      .updateTable('commerce_promotions')
      .set(encode(patch) as never)
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .execute();
  }

  async delete(orgId: number, id: number): Promise<boolean> {
    const gone = await this.db
      .deleteFrom('commerce_promotions')
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(gone.numDeletedRows) > 0;
  }

  /**
   * What may discount a cart now: active, within its window, and either applied to the cart by
   * code or automatic. An automatic promotion also needs a use left, and a use left for the
   * cart's e-mail (a code's usage is checked when applied and when the order is placed, so a
   * cart paid for its discounted total is refused at completion rather than silently re-priced).
   */
  async forCart(orgId: number, cartId: number, email: string | null, now: Date): Promise<PromotionRow[]> {
    const mail = email === null ? null : email.toLowerCase();
    const rows = await this.select()
      .where('p.org_id', '=', orgId)
      .where('p.status', '=', 'active')
      .where((eb) => eb.or([eb('p.starts_at', 'is', null), eb('p.starts_at', '<=', now)]))
      .where((eb) => eb.or([eb('p.ends_at', 'is', null), eb('p.ends_at', '>', now)]))
      .where(
        sql<boolean>`((p.id IN (SELECT cp.promotion_id FROM commerce_cart_promotions cp WHERE cp.cart_id = ${cartId}))
          OR (p.is_automatic
              AND (p.usage_limit IS NULL OR p.used < p.usage_limit)
              AND (p.per_customer_limit IS NULL OR ${mail}::text IS NULL OR p.per_customer_limit >
                   (SELECT count(*) FROM commerce_order_promotions op
                     WHERE op.promotion_id = p.id AND op.email = ${mail}::text))))`,
      )
      .orderBy('p.id')
      .execute();
    return rows as PromotionRow[];
  }

  /** The first of `ids` that is not a row of this shop in `table`, or null when all are. */
  async missingIds(
    orgId: number,
    table: 'commerce_products' | 'commerce_product_collections',
    ids: readonly number[],
  ): Promise<number | null> {
    if (ids.length === 0) return null;
    const rows = await (this.db as Kysely<CommerceTables>)
      .selectFrom(table as 'commerce_products')
      .select('id')
      .where('org_id', '=', orgId)
      .where('id', 'in', [...ids])
      .execute();
    const found = new Set(rows.map((r) => Number(r.id)));
    return ids.find((id) => !found.has(id)) ?? null;
  }

  /** Each product's collection (products without one are left out). */
  async collectionsOf(productIds: readonly number[]): Promise<Map<number, number>> {
    if (productIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('commerce_products')
      .select(['id', 'collection_id'])
      .where('id', 'in', [...productIds])
      .where('collection_id', 'is not', null)
      .execute();
    return new Map(rows.map((r) => [Number(r.id), Number(r.collection_id)]));
  }

  async attach(cartId: number, promotionId: number, now: Date): Promise<void> {
    await this.db
      .insertInto('commerce_cart_promotions')
      .values({ cart_id: cartId, promotion_id: promotionId, created_at: now })
      .onConflict((oc) => oc.columns(['cart_id', 'promotion_id']).doNothing())
      .execute();
  }

  async detach(cartId: number, promotionId: number): Promise<void> {
    await this.db
      .deleteFrom('commerce_cart_promotions')
      .where('cart_id', '=', cartId)
      .where('promotion_id', '=', promotionId)
      .execute();
  }

  /** Orders placed with the promotion by this e-mail (any case). */
  async usesBy(promotionId: number, email: string): Promise<number> {
    const row = await this.db
      .selectFrom('commerce_order_promotions')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('promotion_id', '=', promotionId)
      .where('email', '=', email.toLowerCase())
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Takes one use of an active promotion, if one is left: one statement, so two completions never
   * spend the last use twice (the second waits on the row, then finds none left). The row stays
   * locked until the transaction ends, so the per-customer count read after it is current.
   */
  async takeUse(orgId: number, id: number): Promise<boolean> {
    const row = await this.db
      .updateTable('commerce_promotions')
      .set({ used: sql`used + 1` })
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .where('status', '=', 'active')
      .where((eb) => eb.or([eb('usage_limit', 'is', null), eb('used', '<', eb.ref('usage_limit'))]))
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  async recordUse(row: {
    org_id: number;
    order_id: number;
    promotion_id: number;
    code: string;
    email: string;
    amount_minor: number;
  }): Promise<void> {
    await this.db
      .insertInto('commerce_order_promotions')
      .values({ ...row, email: row.email.toLowerCase() })
      .execute();
  }
}

/** JSON columns written as jsonb (the drivers would otherwise send arrays as arrays). */
function encode<T extends Record<string, unknown>>(row: T): Record<string, unknown> {
  const out: Record<string, unknown> = { ...row };
  for (const k of ['amounts', 'product_ids', 'collection_ids', 'min_subtotals'])
    if (out[k] !== undefined) out[k] = json(out[k]);
  return out;
}
