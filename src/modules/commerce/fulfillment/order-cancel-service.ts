import type { Transaction } from 'kysely';
import { PaymentProviderError } from '../../../kernel/payments/payment-provider.ts';
import type { ShopPaymentProviders } from '../checkout/shop-payment-providers.ts';
import type { CommerceContext } from '../commerce-context.ts';
import { orderNotFound } from '../commerce-errors.ts';
import type { CommercePaymentRow, CommerceTables } from '../commerce-tables.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import { orderCanceled, orderHasFulfillments, paymentProviderFailed } from './fulfillment-errors.ts';
import { FulfillmentStockRepository } from './fulfillment-stock-repository.ts';
import { canceledOrderView, type CanceledOrderView } from './fulfillment-view.ts';
import { FulfillmentsRepository } from './fulfillments-repository.ts';
import { GIFT_CARD, recordRefund, type RefundAllocation } from '../refunds/refund-record.ts';
import type { UnitOfWork } from '../../../kernel/db/unit-of-work.ts';

/** What the payments of a canceled order became. */
interface Settled {
  readonly refundedMinor: number;
  /** What went back through each captured payment (the refund recorded with the cancel). */
  readonly allocations: RefundAllocation[];
  /** The order's new payment_status; null: as it was (nothing was paid). */
  readonly paymentStatus: string | null;
}

/**
 * `POST .../orders/{order_id}/cancel` (docs/commerce.md, "Fulfilment and cancel"): before any
 * fulfilment that is not canceled, in one transaction under the order row's lock: the order's
 * reservations are released, a captured payment is refunded in full at its provider (an
 * authorization is released), and the order turns `canceled`. The provider is called last, so a
 * refusal before it costs nothing; its idempotency key is the payment's, so a retry after a lost
 * commit refunds once.
 */
export class OrderCancelService {
  private readonly repo: FulfillmentsRepository;

  constructor(
    private readonly ctx: CommerceContext,
    private readonly log: ShopEventLog,
    private readonly providers: ShopPaymentProviders,
  ) {
    this.repo = new FulfillmentsRepository(ctx.db);
  }

  async cancel(orgId: number, orderId: number): Promise<CanceledOrderView> {
    return this.log.change(orgId, async (uow) => {
      const trx = uow.trx;
      const repo = this.repo.withTx(trx);
      const order = await repo.lockOrder(orgId, orderId);
      if (order === null) throw orderNotFound();
      if (order.status === 'canceled') throw orderCanceled();
      if (await repo.hasLiveFulfillment(orderId)) throw orderHasFulfillments();
      const now = new Date(this.ctx.clock.now());
      const items = [...(await repo.itemQuantities(orderId)).keys()];
      await new FulfillmentStockRepository(trx, orgId).release(items, now);
      const settled = await this.settle(trx, orderId, now);
      if (settled.allocations.length > 0)
        await this.recordRefund(uow, orgId, orderId, order.currency, settled, now);
      const paymentStatus = settled.paymentStatus ?? order.payment_status;
      await repo.setOrder(
        orderId,
        {
          status: 'canceled',
          fulfillment_status: 'canceled',
          payment_status: paymentStatus,
          canceled_at: now,
        },
        now,
      );
      return {
        result: canceledOrderView({ ...order, payment_status: paymentStatus }, settled.refundedMinor, now),
        events: [['commerce.order.canceled', { id: orderId, order_number: order.order_number }]],
      };
    });
  }

  /** Refunds what each payment captured and has not refunded; releases what was only authorized. */
  private async settle(trx: Transaction<CommerceTables>, orderId: number, now: Date): Promise<Settled> {
    const repo = this.repo.withTx(trx);
    const payments = await repo.lockPayments(orderId);
    let refundedMinor = 0;
    let paymentStatus: string | null = null;
    const allocations: RefundAllocation[] = [];
    for (const p of payments) {
      const left = Number(p.captured_minor) - Number(p.refunded_minor);
      if (p.status === 'captured' && left > 0 && p.provider === GIFT_CARD) {
        // Given back in the shop itself: the gift card's balance (restored by the refund's reaction).
        await repo.setPayment(p.id, { status: 'refunded', refunded_minor: Number(p.captured_minor) }, now);
        refundedMinor += left;
        allocations.push({
          paymentId: Number(p.id),
          provider: p.provider,
          amountMinor: left,
          providerReference: null,
        });
        paymentStatus = 'refunded';
      } else if (p.status === 'captured' && left > 0) {
        const refund = await this.call(p, (provider) =>
          provider.refund({
            reference: p.reference,
            amountMinor: left,
            idempotencyKey: `commerce-payment-${p.id}-cancel-refund`,
          }),
        );
        await repo.setPayment(p.id, { status: 'refunded', refunded_minor: Number(p.captured_minor) }, now);
        refundedMinor += left;
        allocations.push({
          paymentId: Number(p.id),
          provider: p.provider,
          amountMinor: left,
          providerReference: refund.reference,
        });
        paymentStatus = 'refunded';
      } else if (p.status === 'authorized') {
        await this.call(p, (provider) => provider.cancel(p.reference));
        await repo.setPayment(p.id, { status: 'canceled' }, now);
        paymentStatus ??= 'canceled';
      }
    }
    return { refundedMinor, allocations, paymentStatus };
  }

  /** The cancel's refund: its rows and `commerce.refund.created`, in the cancel's transaction. */
  private async recordRefund(
    uow: UnitOfWork<CommerceTables>,
    orgId: number,
    orderId: number,
    currency: string,
    settled: Settled,
    at: Date,
  ): Promise<void> {
    await recordRefund(uow, this.log, orgId, {
      orderId,
      returnId: null,
      currencyCode: currency,
      reason: 'cancel',
      note: null,
      allocations: settled.allocations,
      lines: [],
      at,
    });
  }

  /** The provider's answer, or 502 naming it (unreachable, refused, or no longer configured). */
  private async call<T>(
    payment: CommercePaymentRow,
    work: (provider: NonNullable<ReturnType<ShopPaymentProviders['get']>>) => Promise<T>,
  ): Promise<T> {
    const provider = this.providers.get(payment.provider);
    if (provider === null) throw paymentProviderFailed(payment.provider);
    try {
      return await work(provider);
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      this.ctx.log.warn({ err: error, provider: payment.provider }, 'order cancel: payment provider failed');
      throw paymentProviderFailed(payment.provider);
    }
  }
}
