import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { CommerceContext } from '../commerce-context.ts';
import { orderNotFound } from '../commerce-errors.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import { orderCanceled } from '../fulfillment/fulfillment-errors.ts';
import { auditChange, type Actor } from '../refunds/change-audit.ts';
import { returnView, type ReturnView } from './return-view.ts';
import { ReturnsRepository, type ReturnOrder } from './returns-repository.ts';

export interface NewReturn {
  readonly items: readonly { item_id: number; quantity: number }[];
  readonly reason_id?: number | null;
  readonly note?: string | null;
  readonly shipping_option_id?: number;
}

/** Who asks for a return: the shopper through the Store API, the merchant through the Commerce API. */
export type Requester = 'shopper' | 'merchant';

/**
 * Asks for units of an order to come back (docs/commerce.md, "Returns and refunds"): under the
 * order row's lock, each item of the order at most once, for no more than what was shipped
 * (fulfilments shipped or delivered) minus what its returns already hold (those neither rejected
 * nor canceled), else 422 naming the field. The return is `requested`; with the shop's return
 * shipping option (`is_return`) of the order's region when it has one.
 */
export class ReturnRequests {
  private readonly repo: ReturnsRepository;

  constructor(
    private readonly ctx: CommerceContext,
    private readonly log: ShopEventLog,
  ) {
    this.repo = new ReturnsRepository(ctx.db);
  }

  /** `visible`: whether the caller may see the locked order (the Store API's key mode); else 404. */
  async request(
    orgId: number,
    orderId: number,
    input: NewReturn,
    by: Requester,
    actor: Actor,
    visible: (order: ReturnOrder) => boolean = () => true,
  ): Promise<ReturnView> {
    return this.log.change(orgId, async (uow) => {
      const repo = this.repo.withTx(uow.trx);
      const order = await repo.order(orgId, orderId, true);
      if (order === null || !visible(order)) throw orderNotFound();
      if (order.status === 'canceled') throw orderCanceled();
      await this.checkItems(repo, orderId, input.items);
      if (input.reason_id != null && !(await repo.reasonExists(orgId, input.reason_id)))
        throw invalidField(
          ['body', 'reason_id'],
          'No return reason of this shop has this id',
          input.reason_id,
        );
      const shippingOptionId = await this.shippingOption(repo, orgId, order, input.shipping_option_id);
      const now = new Date(this.ctx.clock.now());
      const id = await repo.insert(
        {
          org_id: orgId,
          order_id: orderId,
          status: 'requested',
          reason_id: input.reason_id ?? null,
          note: input.note ?? null,
          shipping_option_id: shippingOptionId,
          requested_by: by,
          rejection_reason: null,
          location_id: null,
          refund_id: null,
          created_at: now,
          approved_at: null,
          rejected_at: null,
          received_at: null,
          refunded_at: null,
          canceled_at: null,
          updated_at: now,
        },
        input.items,
      );
      await auditChange(this.ctx, uow, actor, orgId, 'commerce.return.request', id);
      return {
        result: returnView((await repo.one(orgId, id))!),
        events: [['commerce.return.requested', { id, order_id: orderId }]],
      };
    });
  }

  private async checkItems(
    repo: ReturnsRepository,
    orderId: number,
    items: readonly { item_id: number; quantity: number }[],
  ): Promise<void> {
    const ordered = new Set((await repo.orderItems(orderId)).map((i) => Number(i.id)));
    const shipped = await repo.shippedPerItem(orderId);
    const returned = await repo.returnedPerItem(orderId);
    const seen = new Set<number>();
    items.forEach((item, i) => {
      if (!ordered.has(item.item_id) || seen.has(item.item_id))
        throw invalidField(
          ['body', 'items', i, 'item_id'],
          seen.has(item.item_id) ? 'Each item once' : 'No item of this order has this id',
          item.item_id,
        );
      seen.add(item.item_id);
      const left = (shipped.get(item.item_id) ?? 0) - (returned.get(item.item_id) ?? 0);
      if (item.quantity > left)
        throw invalidField(
          ['body', 'items', i, 'quantity'],
          `Item ${item.item_id}: ${Math.max(left, 0)} can be returned (shipped and not already returned)`,
          item.quantity,
        );
    });
  }

  /** The option named (an `is_return` option of the order's region, else 422), or the first the shop has. */
  private async shippingOption(
    repo: ReturnsRepository,
    orgId: number,
    order: ReturnOrder,
    given: number | undefined,
  ): Promise<number | null> {
    const options = await repo.returnOptions(orgId, order.region_id);
    if (given === undefined) return options[0] ?? null;
    if (!options.includes(given))
      throw invalidField(
        ['body', 'shipping_option_id'],
        'No return shipping option (is_return) of the order’s region has this id',
        given,
      );
    return given;
  }
}
