import { sql, type Kysely, type Transaction } from 'kysely';
import type {
  CommerceEventRow,
  CommerceGiftCardRow,
  CommerceOrderRow,
  CommerceProductRow,
  CommercePromotionRow,
  CommerceTables,
} from '../commerce-tables.ts';

type Db = Kysely<CommerceTables> | Transaction<CommerceTables>;

export interface OrderFilter {
  readonly q?: string;
  readonly placedFrom?: Date;
  /** Excluded: `placed_to` is the upper end, not included. */
  readonly placedTo?: Date;
}

/** Tables read page by page with `before_id`: newest first, ids below the cursor. */
type BeforeIdTable = 'commerce_events' | 'commerce_promotions' | 'commerce_gift_cards';

const MONEY = (column: string) => sql<string>`${sql.ref(column)}::text`;

/** The Commerce lists, and the inserts the Commerce issue (and tests) write through. */
export class CommerceListsRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<CommerceTables>): CommerceListsRepository {
    return new CommerceListsRepository(trx);
  }

  async orders(
    orgId: number,
    filter: OrderFilter,
    limit: number,
    offset: number,
  ): Promise<{ rows: CommerceOrderRow[]; count: number }> {
    let q = this.db.selectFrom('commerce_orders').where('org_id', '=', orgId);
    if (filter.q !== undefined && filter.q.trim() !== '') {
      const like = `%${filter.q.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      q = q.where((eb) => eb.or([eb('order_number', 'ilike', like), eb('email', 'ilike', like)]));
    }
    if (filter.placedFrom !== undefined) q = q.where('placed_at', '>=', filter.placedFrom);
    if (filter.placedTo !== undefined) q = q.where('placed_at', '<', filter.placedTo);
    const [rows, total] = await Promise.all([
      q
        .selectAll()
        .select(MONEY('total').as('total'))
        .orderBy('placed_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, count: Number(total.n) };
  }

  async products(
    orgId: number,
    limit: number,
    offset: number,
  ): Promise<{ rows: CommerceProductRow[]; count: number }> {
    const q = this.db.selectFrom('commerce_products').where('org_id', '=', orgId);
    const [rows, total] = await Promise.all([
      q.selectAll().orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, count: Number(total.n) };
  }

  /** One page below `beforeId`, newest first, and whether rows remain after it. */
  async beforeId<T extends BeforeIdTable>(
    table: T,
    orgId: number,
    beforeId: number | undefined,
    limit: number,
  ): Promise<{ rows: CommerceTables[T][]; more: boolean }> {
    let q = (this.db as Kysely<CommerceTables>)
      .selectFrom(table as BeforeIdTable)
      .selectAll()
      .where('org_id', '=', orgId);
    if (table === 'commerce_promotions') q = q.select(MONEY('value').as('value'));
    if (table === 'commerce_gift_cards') q = q.select(MONEY('balance').as('balance'));
    if (beforeId !== undefined) q = q.where('id', '<', beforeId);
    const rows = (await q
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .execute()) as CommerceTables[T][];
    return { rows: rows.slice(0, limit), more: rows.length > limit };
  }

  async insertOrder(row: Omit<CommerceOrderRow, 'id' | 'created_at'>): Promise<number> {
    return this.insert('commerce_orders', row);
  }

  async insertProduct(row: Omit<CommerceProductRow, 'id' | 'created_at'>): Promise<number> {
    return this.insert('commerce_products', row);
  }

  async insertEvent(row: Omit<CommerceEventRow, 'id' | 'created_at'>): Promise<number> {
    return this.insert('commerce_events', { ...row, data: JSON.stringify(row.data) });
  }

  async insertPromotion(row: Omit<CommercePromotionRow, 'id' | 'created_at'>): Promise<number> {
    return this.insert('commerce_promotions', row);
  }

  async insertGiftCard(row: Omit<CommerceGiftCardRow, 'id' | 'created_at'>): Promise<number> {
    return this.insert('commerce_gift_cards', row);
  }

  private async insert(table: keyof CommerceTables, values: Record<string, unknown>): Promise<number> {
    const row = await (this.db as Kysely<CommerceTables>)
      .insertInto(table)
      .values(values as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }
}
