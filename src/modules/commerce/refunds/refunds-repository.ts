import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type {
  CommercePaymentRow,
  CommerceRefundAllocationRow,
  CommerceRefundLineRow,
  CommerceRefundRow,
  CommerceTables,
} from '../commerce-tables.ts';
import { lockOrderRow, type LockedOrder } from '../shared/order-lock-repository.ts';

type Db = Kysely<CommerceTables> | Transaction<CommerceTables>;

export interface RefundWithParts {
  readonly refund: Selectable<CommerceRefundRow>;
  readonly allocations: CommerceRefundAllocationRow[];
  readonly lines: CommerceRefundLineRow[];
}

/** What a refund's rows hold (refund-record.ts's RefundFacts). */
export interface NewRefundRows {
  readonly orderId: number;
  readonly returnId: number | null;
  readonly currencyCode: string;
  readonly reason: string;
  readonly note: string | null;
  readonly at: Date;
  readonly allocations: readonly {
    paymentId: number;
    provider: string;
    amountMinor: number;
    providerReference: string | null;
  }[];
  readonly lines: readonly { orderItemId: number; quantity: number; amountMinor: number }[];
}

/** The payments a refund moves, the order's `payment_status`, and the refunds recorded. */
export class RefundsRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<CommerceTables>): RefundsRepository {
    return new RefundsRepository(trx);
  }

  /** The order, its row locked: refunds, returns, fulfilments and the cancel of one order queue. */
  lockOrder(orgId: number, orderId: number): Promise<LockedOrder | null> {
    return lockOrderRow(this.db, orgId, orderId);
  }

  /** The order's payments, locked, oldest first. */
  async lockPayments(orderId: number): Promise<CommercePaymentRow[]> {
    return this.db
      .selectFrom('commerce_payments')
      .selectAll()
      .where('order_id', '=', orderId)
      .orderBy('id')
      .forUpdate()
      .execute();
  }

  async setPayment(id: number, patch: { status: string; refunded_minor?: number }, at: Date): Promise<void> {
    await this.db
      .updateTable('commerce_payments')
      .set({ ...patch, updated_at: at })
      .where('id', '=', id)
      .execute();
  }

  async setPaymentStatus(orderId: number, paymentStatus: string, at: Date): Promise<void> {
    await this.db
      .updateTable('commerce_orders')
      .set({ payment_status: paymentStatus, updated_at: at })
      .where('id', '=', orderId)
      .execute();
  }

  /** A refund with its allocations and lines; its id. */
  async insertRefund(orgId: number, amountMinor: number, facts: NewRefundRows): Promise<number> {
    const refund = await this.db
      .insertInto('commerce_refunds')
      .values({
        org_id: orgId,
        order_id: facts.orderId,
        return_id: facts.returnId,
        amount_minor: amountMinor,
        currency_code: facts.currencyCode,
        reason: facts.reason,
        note: facts.note,
        created_at: facts.at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(refund.id);
    await this.db
      .insertInto('commerce_refund_allocations')
      .values(
        facts.allocations.map((a) => ({
          refund_id: id,
          payment_id: a.paymentId,
          provider: a.provider,
          amount_minor: a.amountMinor,
          provider_reference: a.providerReference,
        })),
      )
      .execute();
    if (facts.lines.length > 0)
      await this.db
        .insertInto('commerce_refund_lines')
        .values(
          facts.lines.map((l) => ({
            refund_id: id,
            order_item_id: l.orderItemId,
            quantity: l.quantity,
            amount_minor: l.amountMinor,
          })),
        )
        .execute();
    return id;
  }

  /** How many refunds the order has: the sequence number of its next one is this plus one. */
  async countOf(orderId: number): Promise<number> {
    const row = await this.db
      .selectFrom('commerce_refunds')
      .select(sql<string>`count(*)`.as('n'))
      .where('order_id', '=', orderId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async orderExists(orgId: number, orderId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('commerce_orders')
      .select('id')
      .where('org_id', '=', orgId)
      .where('id', '=', orderId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The order's refunds with their allocations and lines, oldest first. */
  async ofOrder(orderId: number): Promise<RefundWithParts[]> {
    const refunds = await this.db
      .selectFrom('commerce_refunds')
      .selectAll()
      .where('order_id', '=', orderId)
      .orderBy('id')
      .execute();
    return this.withParts(refunds);
  }

  async byId(id: number): Promise<RefundWithParts | null> {
    const refunds = await this.db.selectFrom('commerce_refunds').selectAll().where('id', '=', id).execute();
    return (await this.withParts(refunds))[0] ?? null;
  }

  private async withParts(refunds: Selectable<CommerceRefundRow>[]): Promise<RefundWithParts[]> {
    const ids = refunds.map((r) => Number(r.id));
    if (ids.length === 0) return [];
    const allocations = await this.db
      .selectFrom('commerce_refund_allocations')
      .selectAll()
      .where('refund_id', 'in', ids)
      .orderBy('payment_id')
      .execute();
    const lines = await this.db
      .selectFrom('commerce_refund_lines')
      .selectAll()
      .where('refund_id', 'in', ids)
      .orderBy('order_item_id')
      .execute();
    return refunds.map((r) => ({
      refund: { ...r, id: Number(r.id) },
      allocations: allocations.filter((a) => Number(a.refund_id) === Number(r.id)),
      lines: lines.filter((l) => Number(l.refund_id) === Number(r.id)),
    }));
  }
}
