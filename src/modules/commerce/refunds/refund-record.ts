import type { UnitOfWork } from '../../../kernel/db/unit-of-work.ts';
import type { CommerceTables } from '../commerce-tables.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import { RefundsRepository } from './refunds-repository.ts';

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
  const id = await new RefundsRepository(uow.trx).insertRefund(orgId, amount, facts);
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
