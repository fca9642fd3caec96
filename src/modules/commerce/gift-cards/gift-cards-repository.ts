import type { Kysely, Transaction } from 'kysely';
import type {
  CommerceGiftCardExtraRow,
  CommerceGiftCardRow,
  CommerceGiftCardTransactionRow,
  CommerceTables,
} from '../commerce-tables.ts';

type Db = Kysely<CommerceTables> | Transaction<CommerceTables>;
export type GiftCardRow = CommerceGiftCardRow & CommerceGiftCardExtraRow;
export type NewGiftCard = Omit<GiftCardRow, 'id' | 'created_at' | 'updated_at' | 'balance'>;

/** A gift card applied to a cart, with when it was applied. */
export type AppliedGiftCardRow = GiftCardRow & { applied_at: Date };

/** The SQL of gift cards, their balance's transactions and their carts. */
export class GiftCardsRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<CommerceTables>): GiftCardsRepository {
    return new GiftCardsRepository(trx);
  }

  async insert(orgId: number, card: NewGiftCard, balance: string, at: Date): Promise<GiftCardRow> {
    return this.db
      .insertInto('commerce_gift_cards')
      .values({ ...card, org_id: orgId, balance, created_at: at, updated_at: at } as never)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** One card of the organization; `lock` holds its row until the transaction ends. */
  async byId(orgId: number, id: number, lock = false): Promise<GiftCardRow | null> {
    let q = this.db
      .selectFrom('commerce_gift_cards')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('id', '=', id);
    if (lock) q = q.forUpdate();
    return (await q.executeTakeFirst()) ?? null;
  }

  async byCodeHash(orgId: number, hash: string): Promise<GiftCardRow | null> {
    return (
      (await this.db
        .selectFrom('commerce_gift_cards')
        .selectAll()
        .where('org_id', '=', orgId)
        .where('code_hash', '=', hash)
        .executeTakeFirst()) ?? null
    );
  }

  async update(
    id: number,
    patch: Partial<Pick<GiftCardRow, 'status' | 'expires_at' | 'note' | 'balance_minor' | 'balance'>>,
    at: Date,
  ): Promise<GiftCardRow> {
    return this.db
      .updateTable('commerce_gift_cards')
      .set({ ...patch, updated_at: at })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async insertTransaction(row: Omit<CommerceGiftCardTransactionRow, 'id'>): Promise<void> {
    await this.db
      .insertInto('commerce_gift_card_transactions')
      .values(row as never)
      .execute();
  }

  async transactions(cardId: number): Promise<CommerceGiftCardTransactionRow[]> {
    return this.db
      .selectFrom('commerce_gift_card_transactions')
      .selectAll()
      .where('gift_card_id', '=', cardId)
      .orderBy('id')
      .execute();
  }

  /** The cards applied to a cart, first applied first; `lock` holds their rows (in id order). */
  async appliedTo(cartId: number, lock = false): Promise<AppliedGiftCardRow[]> {
    if (lock) {
      // Locked in id order, as every writer of a card locks one row at a time: no deadlock.
      await this.db
        .selectFrom('commerce_gift_cards')
        .select('id')
        .where('id', 'in', (eb) =>
          eb.selectFrom('commerce_cart_gift_cards').select('gift_card_id').where('cart_id', '=', cartId),
        )
        .orderBy('id')
        .forUpdate()
        .execute();
    }
    return (await this.db
      .selectFrom('commerce_cart_gift_cards as a')
      .innerJoin('commerce_gift_cards as g', 'g.id', 'a.gift_card_id')
      .selectAll('g')
      .select('a.created_at as applied_at')
      .where('a.cart_id', '=', cartId)
      .orderBy('a.created_at')
      .orderBy('a.gift_card_id')
      .execute()) as AppliedGiftCardRow[];
  }

  /** Applies a card to a cart; applying it again keeps the first time. */
  async apply(cartId: number, cardId: number, at: Date): Promise<void> {
    await this.db
      .insertInto('commerce_cart_gift_cards')
      .values({ cart_id: cartId, gift_card_id: cardId, created_at: at })
      .onConflict((oc) => oc.columns(['cart_id', 'gift_card_id']).doNothing())
      .execute();
  }

  async unapply(cartId: number, cardId: number): Promise<boolean> {
    const res = await this.db
      .deleteFrom('commerce_cart_gift_cards')
      .where('cart_id', '=', cartId)
      .where('gift_card_id', '=', cardId)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  /** Which of these products sell gift cards. */
  async giftCardProducts(productIds: readonly number[]): Promise<Set<number>> {
    if (productIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('commerce_products')
      .select('id')
      .where('id', 'in', [...productIds])
      .where('is_gift_card', '=', true)
      .execute();
    return new Set(rows.map((r) => Number(r.id)));
  }

  /** The gift card a payment of an order spent (`reference` `gift_card:<id>`), or null. */
  async paymentReference(paymentId: number): Promise<string | null> {
    const row = await this.db
      .selectFrom('commerce_payments')
      .select('reference')
      .where('id', '=', paymentId)
      .executeTakeFirst();
    return row?.reference ?? null;
  }
}
