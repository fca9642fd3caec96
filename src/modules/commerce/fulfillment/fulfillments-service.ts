import type { Transaction } from 'kysely';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { CommerceContext } from '../commerce-context.ts';
import { orderNotFound } from '../commerce-errors.ts';
import type { CommerceTables, FulfillmentStatus } from '../commerce-tables.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import { fulfillmentNotFound, fulfillmentTransition, orderCanceled } from './fulfillment-errors.ts';
import { orderFulfillmentStatus } from './fulfillment-status.ts';
import { FulfillmentStockRepository } from './fulfillment-stock-repository.ts';
import { fulfillmentView, type FulfillmentView } from './fulfillment-view.ts';
import {
  FulfillmentsRepository,
  type FulfillmentPatch,
  type FulfillmentWithItems,
} from './fulfillments-repository.ts';

export interface NewFulfillment {
  readonly items: readonly { item_id: number; quantity: number }[];
  readonly location_id?: number;
}

export interface Tracking {
  readonly tracking_number?: string;
  readonly tracking_url?: string;
}

/** A step a fulfilment takes, and the states it may take it from. */
export type FulfillmentStep = Exclude<FulfillmentStatus, 'created'>;

/** Dispatching is optional: a fulfilment may be shipped straight from `created`, as in Medusa. */
const FROM: Readonly<Record<FulfillmentStep, readonly FulfillmentStatus[]>> = {
  dispatched: ['created'],
  shipped: ['created', 'dispatched'],
  delivered: ['shipped'],
  canceled: ['created', 'dispatched'],
};

const STAMP = {
  dispatched: 'dispatched_at',
  shipped: 'shipped_at',
  delivered: 'delivered_at',
  canceled: 'canceled_at',
} as const;

/**
 * Fulfilments of a placed order (docs/commerce.md, "Fulfilment and cancel"): each change locks the
 * order row, so two fulfilments of one order never take the same units, and sets the order's
 * `fulfillment_status` in the same transaction as its event.
 */
export class FulfillmentsService {
  private readonly repo: FulfillmentsRepository;

  constructor(
    private readonly ctx: CommerceContext,
    private readonly log: ShopEventLog,
  ) {
    this.repo = new FulfillmentsRepository(ctx.db);
  }

  async list(orgId: number, orderId: number): Promise<FulfillmentView[]> {
    if (!(await this.repo.orderExists(orgId, orderId))) throw orderNotFound();
    return (await this.repo.ofOrder(orderId)).map(fulfillmentView);
  }

  async create(orgId: number, orderId: number, input: NewFulfillment): Promise<FulfillmentView> {
    return this.log.change(orgId, async ({ trx }) => {
      const repo = this.repo.withTx(trx);
      const order = await repo.lockOrder(orgId, orderId);
      if (order === null) throw orderNotFound();
      if (order.status === 'canceled') throw orderCanceled();
      const location = input.location_id ?? null;
      if (location !== null && !(await repo.locationExists(orgId, location)))
        throw invalidField(['body', 'location_id'], 'No stock location of this shop has this id', location);
      await checkQuantities(repo, orderId, input.items);
      const id = await repo.insert(orgId, orderId, location, input.items, this.now());
      await this.follow(repo, orderId);
      return {
        result: fulfillmentView((await repo.fulfillment(orgId, orderId, id))!),
        events: [['commerce.fulfillment.created', { id, order_id: orderId }]],
      };
    });
  }

  /** Moves a fulfilment one step; shipping it turns its items' reservations into a shipment. */
  async mark(
    orgId: number,
    orderId: number,
    id: number,
    step: FulfillmentStep,
    tracking: Tracking = {},
  ): Promise<FulfillmentView> {
    return this.log.change(orgId, async ({ trx }) => {
      const repo = this.repo.withTx(trx);
      if ((await repo.lockOrder(orgId, orderId)) === null) throw orderNotFound();
      const found = await repo.fulfillment(orgId, orderId, id);
      if (found === null) throw fulfillmentNotFound();
      const state = found.fulfillment.status;
      if (!FROM[step].includes(state)) throw fulfillmentTransition(state, step);
      const now = this.now();
      const patch: FulfillmentPatch = { status: step, [STAMP[step]]: now };
      if (tracking.tracking_number !== undefined) patch.tracking_number = tracking.tracking_number;
      if (tracking.tracking_url !== undefined) patch.tracking_url = tracking.tracking_url;
      if (step === 'shipped') await this.ship(trx, orgId, found, now);
      await repo.update(id, patch);
      await this.follow(repo, orderId);
      return {
        result: fulfillmentView((await repo.fulfillment(orgId, orderId, id))!),
        events: [[`commerce.fulfillment.${step}`, { id, order_id: orderId }]],
      };
    });
  }

  private async ship(
    trx: Transaction<CommerceTables>,
    orgId: number,
    found: FulfillmentWithItems,
    now: Date,
  ): Promise<void> {
    const location = found.fulfillment.location_id;
    await new FulfillmentStockRepository(trx, orgId).ship(
      found.items.map((i) => ({ order_item_id: Number(i.order_item_id), quantity: i.quantity })),
      location === null ? null : Number(location),
      now,
    );
  }

  /** The order's fulfillment_status from its fulfilments as they now stand. */
  private async follow(repo: FulfillmentsRepository, orderId: number): Promise<void> {
    const ordered = [...(await repo.itemQuantities(orderId)).values()].reduce((a, b) => a + b, 0);
    const status = orderFulfillmentStatus({ ordered, byStatus: await repo.quantitiesByStatus(orderId) });
    await repo.setOrder(orderId, { fulfillment_status: status }, this.now());
  }

  private now(): Date {
    return new Date(this.ctx.clock.now());
  }
}

/** Each item once, of this order, for no more than it has left to fulfil: else 422 naming it. */
async function checkQuantities(
  repo: FulfillmentsRepository,
  orderId: number,
  items: NewFulfillment['items'],
): Promise<void> {
  const ordered = await repo.itemQuantities(orderId);
  const fulfilled = await repo.fulfilledPerItem(orderId);
  const seen = new Set<number>();
  for (const [i, item] of items.entries()) {
    const quantity = ordered.get(item.item_id);
    if (quantity === undefined || seen.has(item.item_id))
      throw invalidField(
        ['body', 'items', i, 'item_id'],
        quantity === undefined ? 'No item of this order has this id' : 'The item is named twice',
        item.item_id,
      );
    seen.add(item.item_id);
    const left = quantity - (fulfilled.get(item.item_id) ?? 0);
    if (item.quantity > left)
      throw invalidField(
        ['body', 'items', i, 'quantity'],
        `Item ${item.item_id} has ${left} left to fulfill (ordered ${quantity})`,
        item.quantity,
        'value_error',
        { item_id: item.item_id, available: left },
      );
  }
}
