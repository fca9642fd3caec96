import type { UnitOfWork } from '../../../kernel/db/unit-of-work.ts';
import type { CommerceTables } from '../commerce-tables.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';

/**
 * The provider of a payment the shop takes itself: a gift card's balance spent at completion
 * (`commerce_payments.reference` `gift_card:<id>`). Refunding it calls no provider; the balance
 * is restored by the reaction to `commerce.refund.created`.
 */
export const GIFT_CARD = 'gift_card';

/** How much of a refund goes back through one payment of the order. */
export interface RefundAllocation {
  readonly paymentId: number;
  /** The payment's provider: `stripe`, `manual`, or `gift_card` (given back in the shop). */
  readonly provider: string;
  readonly amountMinor: number;
  /** The provider's refund id; null for what the shop gives back itself. */
  readonly providerReference: string | null;
}

/** An order item a refund pays back. */
export interface RefundLine {
  readonly orderItemId: number;
  readonly quantity: number;
  readonly amountMinor: number;
}

export interface RefundFacts {
  readonly orderId: number;
  readonly returnId: number | null;
  readonly currencyCode: string;
  /** `return`, `cancel`, or the merchant's words. */
  readonly reason: string;
  readonly note: string | null;
  readonly allocations: readonly RefundAllocation[];
  readonly lines: readonly RefundLine[];
  readonly at: Date;
}

/**
 * The data of `commerce.refund.created` (docs/commerce.md, "Returns and refunds"): what reactions
 * in the same transaction (the credit note, the ledger, gift card balances) need, amounts in minor
 * units as `commerce.order.placed`'s `total`.
 */
export interface RefundCreatedData {
  readonly id: number;
  readonly order_id: number;
  readonly return_id: number | null;
  readonly amount: number;
  readonly currency_code: string;
  readonly reason: string;
  readonly allocations: readonly { payment_id: number; provider: string; amount: number }[];
  readonly lines: readonly { order_item_id: number; quantity: number; amount: number }[];
}

/**
 * Records a refund whose money has gone back (the providers answered) and announces
 * `commerce.refund.created` in the same transaction, so the credit note, the ledger entries and
 * restored gift card balances exist with it or not at all. The payments' `refunded_minor` is the
 * caller's to move, under the lock it holds.
 */
export async function recordRefund(
  uow: UnitOfWork<CommerceTables>,
  log: ShopEventLog,
  orgId: number,
  facts: RefundFacts,
): Promise<RefundCreatedData> {
  const amount = facts.allocations.reduce((a, x) => a + x.amountMinor, 0);
  const refund = await uow.trx
    .insertInto('commerce_refunds')
    .values({
      org_id: orgId,
      order_id: facts.orderId,
      return_id: facts.returnId,
      amount_minor: amount,
      currency_code: facts.currencyCode,
      reason: facts.reason,
      note: facts.note,
      created_at: facts.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = Number(refund.id);
  await uow.trx
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
  if (facts.lines.length > 0) {
    await uow.trx
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
  }
  const data: RefundCreatedData = {
    id,
    order_id: facts.orderId,
    return_id: facts.returnId,
    amount,
    currency_code: facts.currencyCode,
    reason: facts.reason,
    allocations: facts.allocations.map((a) => ({
      payment_id: a.paymentId,
      provider: a.provider,
      amount: a.amountMinor,
    })),
    lines: facts.lines.map((l) => ({
      order_item_id: l.orderItemId,
      quantity: l.quantity,
      amount: l.amountMinor,
    })),
  };
  await log.announce(uow, orgId, 'commerce.refund.created', { ...data });
  return data;
}
