import type { CommerceContext } from '../commerce-context.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import { GIFT_CARD, type RefundCreatedData } from '../refunds/refund-record.ts';
import type { OrgDirectory } from '../../orgs/index.ts';
import { feePercentWithin } from './fee-terms.ts';
import { availableOn, feeOf, move } from './ledger-book.ts';
import { LedgerRepository } from './ledger-repository.ts';

/**
 * The ledger's reactions (docs/commerce.md, "Balance, ledger, disputes and payouts"), in the
 * transaction of the change they follow, so the ledger never lacks a payment nor holds one that
 * rolled back:
 * - `commerce.order.placed`: each captured payment of the order but gift cards (a gift card spent
 *   is money the shop already had) is a `capture` (customer → pending, available 7 days later),
 *   then the platform's `fee` on it (pending → fees, same date) where the billing mode takes one;
 * - `commerce.refund.created`: each allocation but gift cards is a `refund` (available →
 *   customer), then a `fee_refund` (fees → available) of the capture's fee in proportion: the fee
 *   follows the money, so the platform keeps its share only of what the shop keeps.
 */
export function registerLedgerReactions(ctx: CommerceContext, log: ShopEventLog, orgs: OrgDirectory): void {
  const repo = new LedgerRepository(ctx.db);
  log.react('commerce.order.placed', async (uow, orgId, data) => {
    const percent = await feePercentWithin(orgs, uow.trx, orgId);
    await ledgerCaptures(repo.withTx(uow.trx), orgId, Number(data.id), percent, ctx.clock.now());
  });
  log.react('commerce.refund.created', async (uow, orgId, data) => {
    await ledgerRefund(repo.withTx(uow.trx), orgId, data as unknown as RefundCreatedData, ctx);
  });
}

async function ledgerCaptures(
  ledger: LedgerRepository,
  orgId: number,
  orderId: number,
  feePercent: string,
  nowMs: number,
): Promise<void> {
  const payments = await ledger.capturedPayments(orgId, orderId, GIFT_CARD);
  const at = new Date(nowMs);
  const on = availableOn(at);
  for (const p of payments) {
    const amount = Number(p.captured_minor);
    const paymentId = Number(p.id);
    if (amount <= 0 || (await ledger.exists('capture', paymentId, null, null))) continue;
    const currency = p.currency_code.toUpperCase();
    const subject = { orderId, paymentId };
    await ledger.write(orgId, 'capture', currency, subject, move('customer', 'pending', amount, on), at);
    const fee = feeOf(amount, feePercent);
    if (fee > 0) await ledger.write(orgId, 'fee', currency, subject, move('pending', 'fees', fee, on), at);
  }
}

async function ledgerRefund(
  ledger: LedgerRepository,
  orgId: number,
  refund: RefundCreatedData,
  ctx: CommerceContext,
): Promise<void> {
  const at = new Date(ctx.clock.now());
  const currency = refund.currency_code.toUpperCase();
  for (const a of refund.allocations) {
    if (a.provider === GIFT_CARD || a.amount <= 0) continue;
    const subject = { orderId: refund.order_id, paymentId: a.payment_id, refundId: refund.id };
    await ledger.write(orgId, 'refund', currency, subject, move('available', 'customer', a.amount), at);
    // The fee returned is the capture's fee in proportion of the amount refunded (the terms of the
    // capture, rounded half up), never more than the payment's fee left.
    const paid = await ledger.feeOfPayment(a.payment_id);
    const share =
      paid.captured <= 0 ? 0 : Math.floor((2 * a.amount * paid.fee + paid.captured) / (2 * paid.captured));
    const back = Math.min(share, paid.feeLeft);
    if (back > 0)
      await ledger.write(orgId, 'fee_refund', currency, subject, move('fees', 'available', back), at);
  }
}
