import type { ShopPaymentProviders } from '../checkout/shop-payment-providers.ts';
import type { CommerceContext } from '../commerce-context.ts';
import { orderNotFound } from '../commerce-errors.ts';
import type { CommerceTables } from '../commerce-tables.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import { orderCanceled, orderHasFulfillments } from './fulfillment-errors.ts';
import { FulfillmentStockRepository } from './fulfillment-stock-repository.ts';
import { canceledOrderView, type CanceledOrderView } from './fulfillment-view.ts';
import type { LockedOrder } from '../shared/order-lock-repository.ts';
import { FulfillmentsRepository } from './fulfillments-repository.ts';
import { OrderRefunds } from '../refunds/order-refunds.ts';
import { callProvider } from '../refunds/payment-provider-call.ts';
import type { UnitOfWork } from '../../../kernel/db/unit-of-work.ts';

/** What the payments of a canceled order became. */
interface Settled {
  readonly refundedMinor: number;
  /** The order's new payment_status; null: as it was (nothing was paid). */
  readonly paymentStatus: string | null;
}

/**
 * `POST .../orders/{order_id}/cancel` (docs/commerce.md, "Fulfilment and cancel"): before any
 * fulfilment that is not canceled, in one transaction under the order row's lock: the order's
 * reservations are released, what the payments captured is refunded in full through the
 * refund core (refunds/order-refunds.ts: providers first, then gift cards; `commerce.refund.created`
 * with reason `cancel`), an authorization is released, and the order turns `canceled`. Providers
 * are called last, so a refusal before them costs nothing; the refund's idempotency key is the
 * payment's, so a retry after a lost commit refunds once.
 */
export class OrderCancelService {
  private readonly repo: FulfillmentsRepository;
  private readonly refunds: OrderRefunds;

  constructor(
    private readonly ctx: CommerceContext,
    private readonly log: ShopEventLog,
    private readonly providers: ShopPaymentProviders,
  ) {
    this.repo = new FulfillmentsRepository(ctx.db);
    this.refunds = new OrderRefunds(ctx, log, providers);
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
      const settled = await this.settle(uow, orgId, order, now);
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

  /**
   * Refunds what the payments captured and have not refunded, through the one refund core (so the
   * cancel's refund is allocated and recorded as every other), then releases what was only authorized.
   */
  private async settle(
    uow: UnitOfWork<CommerceTables>,
    orgId: number,
    order: LockedOrder,
    now: Date,
  ): Promise<Settled> {
    let refundedMinor = 0;
    let paymentStatus: string | null = null;
    const refundable = await this.refunds.refundable(uow, order.id);
    if (refundable > 0) {
      const { refund } = await this.refunds.refund(uow, orgId, order, {
        amountMinor: refundable,
        reason: 'cancel',
        note: null,
        returnId: null,
        lines: [],
        amountLoc: ['path', 'order_id'],
        // The payment's key, as before the refund core: a retry after a lost commit refunds once.
        keyOf: (paymentId) => `commerce-payment-${paymentId}-cancel-refund`,
      });
      refundedMinor = refund.amount;
      paymentStatus = 'refunded';
    }
    const repo = this.repo.withTx(uow.trx);
    for (const p of await repo.lockPayments(order.id)) {
      if (p.status !== 'authorized') continue;
      await callProvider(this.ctx, this.providers, p.provider, (provider) => provider.cancel(p.reference));
      await repo.setPayment(p.id, { status: 'canceled' }, now);
      paymentStatus ??= 'canceled';
    }
    return { refundedMinor, paymentStatus };
  }
}
