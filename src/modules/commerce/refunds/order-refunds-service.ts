import type { ShopPaymentProviders } from '../checkout/shop-payment-providers.ts';
import type { CommerceContext } from '../commerce-context.ts';
import { orderNotFound } from '../commerce-errors.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import { minorUnits } from '../money/money-amounts.ts';
import { auditChange, type Actor } from './change-audit.ts';
import { OrderRefunds } from './order-refunds.ts';
import { refundView, type RefundView } from './refund-view.ts';
import { RefundsRepository } from './refunds-repository.ts';

export interface NewOrderRefund {
  /** Major units of the order's currency. */
  readonly amount: number;
  readonly reason?: string;
  readonly note?: string;
}

/** Why a refund is given when the merchant says nothing. */
const DEFAULT_REASON = 'refund';

/**
 * `POST .../commerce/orders/{order_id}/refunds` (docs/commerce.md, "Returns and refunds"): an
 * amount given back, partial or whole, never more than captured minus refunded (422 naming
 * `amount`, nothing written), through the refund core under the order row's lock.
 */
export class OrderRefundsService {
  private readonly repo: RefundsRepository;
  private readonly refunds: OrderRefunds;

  constructor(
    private readonly ctx: CommerceContext,
    private readonly log: ShopEventLog,
    providers: ShopPaymentProviders,
  ) {
    this.repo = new RefundsRepository(ctx.db);
    this.refunds = new OrderRefunds(ctx, log, providers);
  }

  async list(orgId: number, orderId: number): Promise<RefundView[]> {
    if (!(await this.repo.orderExists(orgId, orderId))) throw orderNotFound();
    return (await this.repo.ofOrder(orderId)).map(refundView);
  }

  async create(orgId: number, orderId: number, body: NewOrderRefund, actor: Actor): Promise<RefundView> {
    return this.log.change(orgId, async (uow) => {
      const repo = this.repo.withTx(uow.trx);
      const order = await repo.lockOrder(orgId, orderId);
      if (order === null) throw orderNotFound();
      const amountMinor = minorUnits(body.amount, order.currency, ['body', 'amount']);
      // The order's refunds so far number this one: a retry of a lost commit finds the same
      // number and the same amount, so the provider answers its first refund again.
      const sequence = (await repo.countOf(orderId)) + 1;
      const { refund } = await this.refunds.refund(uow, orgId, order, {
        amountMinor,
        reason: body.reason ?? DEFAULT_REASON,
        note: body.note ?? null,
        returnId: null,
        lines: [],
        amountLoc: ['body', 'amount'],
        keyOf: (paymentId, amount) =>
          `commerce-order-${orderId}-refund-${sequence}-payment-${paymentId}-${amount}`,
      });
      await auditChange(this.ctx, uow, actor, orgId, 'commerce.refund.create', refund.id);
      const saved = await repo.byId(refund.id);
      return { result: refundView(saved!), events: [] };
    });
  }
}
