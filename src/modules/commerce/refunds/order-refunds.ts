import type { UnitOfWork } from '../../../kernel/db/unit-of-work.ts';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { ShopPaymentProviders } from '../checkout/shop-payment-providers.ts';
import type { CommerceContext } from '../commerce-context.ts';
import type { CommercePaymentRow, CommerceTables } from '../commerce-tables.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import { majorUnits } from '../money/money-amounts.ts';
import { callProvider } from './payment-provider-call.ts';
import {
  GIFT_CARD,
  recordRefund,
  type RefundAllocation,
  type RefundCreatedData,
  type RefundLine,
} from './refund-record.ts';
import type { LockedOrder } from '../shared/order-lock-repository.ts';
import { RefundsRepository } from './refunds-repository.ts';

type Loc = readonly (string | number)[];

export interface RefundRequest {
  /** Minor units, > 0, at most what the order's payments captured and have not refunded. */
  readonly amountMinor: number;
  /** `return`, `cancel`, or the merchant's words. */
  readonly reason: string;
  readonly note: string | null;
  readonly returnId: number | null;
  readonly lines: readonly RefundLine[];
  /** The field a too large amount is named by in the 422 (`["body","amount"]`). */
  readonly amountLoc: Loc;
  /**
   * The provider's idempotency key of this refund's part through one payment: derived from the
   * refund (the return, the cancel, the order's refund count), so a retry after a lost commit
   * refunds once.
   */
  readonly keyOf: (paymentId: number, amountMinor: number) => string;
}

export interface RefundOutcome {
  readonly refund: RefundCreatedData;
  /** The order's `payment_status` after it: `partially_refunded` or `refunded`. */
  readonly paymentStatus: string;
}

/** What a payment can still give back: captured and not refunded. */
export const refundableOf = (p: CommercePaymentRow): number =>
  p.status === 'captured' ? Number(p.captured_minor) - Number(p.refunded_minor) : 0;

/**
 * The one place a refund of an order is allocated over its payments and recorded (docs/commerce.md,
 * "Returns and refunds"): order refunds, return refunds and the cancel all come here, inside the
 * caller's transaction and under its lock of the order row. Provider payments (`stripe`, `manual`)
 * give back first, oldest first, then gift card payments (no provider call: the gift card's balance
 * is restored by the reaction to `commerce.refund.created`). Each payment's `refunded_minor` grows
 * (a payment given back in full turns `refunded`), the order's `payment_status` becomes
 * `partially_refunded` or `refunded`, and the refund is recorded with `recordRefund`, all in the one
 * transaction. Providers are called before any row is written; one that fails answers 502 and the
 * transaction undoes what was done.
 */
export class OrderRefunds {
  constructor(
    private readonly ctx: CommerceContext,
    private readonly log: ShopEventLog,
    private readonly providers: ShopPaymentProviders,
  ) {}

  /** What the order's payments can still give back, in minor units (the caller holds the order's lock). */
  async refundable(uow: UnitOfWork<CommerceTables>, orderId: number): Promise<number> {
    const payments = await new RefundsRepository(uow.trx).lockPayments(orderId);
    return payments.reduce((sum, p) => sum + refundableOf(p), 0);
  }

  async refund(
    uow: UnitOfWork<CommerceTables>,
    orgId: number,
    order: LockedOrder,
    request: RefundRequest,
  ): Promise<RefundOutcome> {
    const repo = new RefundsRepository(uow.trx);
    const payments = await repo.lockPayments(order.id);
    const refundable = payments.reduce((sum, p) => sum + refundableOf(p), 0);
    if (request.amountMinor <= 0 || request.amountMinor > refundable)
      throw invalidField(
        request.amountLoc,
        `The amount must be more than 0 and at most ${majorUnits(refundable, order.currency)} ` +
          `${order.currency}, what the order's payments captured and have not refunded`,
        majorUnits(request.amountMinor, order.currency),
      );
    const plan = allocate(payments, request.amountMinor);
    const allocations: RefundAllocation[] = [];
    for (const { payment, amountMinor } of plan)
      allocations.push({
        paymentId: Number(payment.id),
        provider: payment.provider,
        amountMinor,
        providerReference: await this.giveBack(payment, amountMinor, request),
      });
    const now = new Date(this.ctx.clock.now());
    let captured = 0;
    let refunded = 0;
    for (const p of payments) {
      const taken = plan.find((x) => x.payment === p)?.amountMinor ?? 0;
      const after = Number(p.refunded_minor) + taken;
      captured += Number(p.captured_minor);
      refunded += after;
      if (taken > 0)
        await repo.setPayment(
          Number(p.id),
          { status: after >= Number(p.captured_minor) ? 'refunded' : p.status, refunded_minor: after },
          now,
        );
    }
    const paymentStatus = refunded >= captured ? 'refunded' : 'partially_refunded';
    await repo.setPaymentStatus(order.id, paymentStatus, now);
    const refund = await recordRefund(uow, this.log, orgId, {
      orderId: order.id,
      returnId: request.returnId,
      currencyCode: order.currency,
      reason: request.reason,
      note: request.note,
      allocations,
      lines: request.lines,
      at: now,
    });
    return { refund, paymentStatus };
  }

  /** The provider's refund id; null for a gift card, given back in the shop itself. */
  private async giveBack(
    payment: CommercePaymentRow,
    amountMinor: number,
    request: RefundRequest,
  ): Promise<string | null> {
    if (payment.provider === GIFT_CARD) return null;
    const done = await callProvider(this.ctx, this.providers, payment.provider, (provider) =>
      provider.refund({
        reference: payment.reference,
        amountMinor,
        idempotencyKey: request.keyOf(Number(payment.id), amountMinor),
      }),
    );
    return done.reference;
  }
}

/** Provider payments first, then gift cards; oldest first within each; each up to what it can give back. */
function allocate(
  payments: readonly CommercePaymentRow[],
  amountMinor: number,
): { payment: CommercePaymentRow; amountMinor: number }[] {
  const ordered = [
    ...payments.filter((p) => p.provider !== GIFT_CARD),
    ...payments.filter((p) => p.provider === GIFT_CARD),
  ];
  const plan: { payment: CommercePaymentRow; amountMinor: number }[] = [];
  let left = amountMinor;
  for (const payment of ordered) {
    const take = Math.min(left, refundableOf(payment));
    if (take <= 0) continue;
    plan.push({ payment, amountMinor: take });
    left -= take;
  }
  return plan;
}
