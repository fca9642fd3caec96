import type { UnitOfWork } from '../../../kernel/db/unit-of-work.ts';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { ShopPaymentProviders } from '../checkout/shop-payment-providers.ts';
import type { CommerceContext } from '../commerce-context.ts';
import type { CommerceReturnRow, CommerceTables, ReturnStatus } from '../commerce-tables.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import { minorUnits } from '../money/money-amounts.ts';
import { auditChange, type Actor } from '../refunds/change-audit.ts';
import { OrderRefunds } from '../refunds/order-refunds.ts';
import type { RefundLine } from '../refunds/refund-record.ts';
import { returnNotFound, returnTransition } from './returns-errors.ts';
import { returnView, type ReturnView } from './return-view.ts';
import { ReturnsRepository, type ReturnOrder, type ReturnWithItems } from './returns-repository.ts';

type Event = [`commerce.${string}`, Record<string, unknown>];

/** What one step of a return sees: its transaction, the order (locked) and the return read under that lock. */
interface Step {
  readonly uow: UnitOfWork<CommerceTables>;
  readonly repo: ReturnsRepository;
  readonly order: ReturnOrder;
  readonly found: ReturnWithItems;
  readonly now: Date;
}

interface StepResult {
  readonly patch: Partial<Omit<CommerceReturnRow, 'id'>>;
  /** More fields of `commerce.return.<step>` than `{id, order_id}`. */
  readonly data?: Record<string, unknown>;
  readonly events?: Event[];
}

export interface ReceiveInput {
  readonly items?: readonly { item_id: number; quantity: number }[];
  readonly location_id?: number;
}

/**
 * The steps of a return after its request (docs/commerce.md, "Returns and refunds"):
 * `requested` → `approved` → `received` → `refunded`; `rejected` or `canceled` from requested or
 * approved. Each step, in one transaction under the order row's lock: the return's row, the stock
 * (receive) or the money (refund), its event `commerce.return.<step>` and its audit entry. A step
 * from any other state answers 409 `commerce.return_transition`.
 */
export class ReturnTransitions {
  private readonly repo: ReturnsRepository;
  private readonly refunds: OrderRefunds;

  constructor(
    private readonly ctx: CommerceContext,
    private readonly log: ShopEventLog,
    providers: ShopPaymentProviders,
  ) {
    this.repo = new ReturnsRepository(ctx.db);
    this.refunds = new OrderRefunds(ctx, log, providers);
  }

  approve(orgId: number, id: number, actor: Actor): Promise<ReturnView> {
    return this.step(orgId, id, actor, 'approve', 'approved', ['requested'], async ({ now }) => ({
      patch: { status: 'approved', approved_at: now },
    }));
  }

  reject(orgId: number, id: number, reason: string, actor: Actor): Promise<ReturnView> {
    return this.step(orgId, id, actor, 'reject', 'rejected', ['requested', 'approved'], async ({ now }) => ({
      patch: { status: 'rejected', rejected_at: now, rejection_reason: reason },
      data: { reason },
    }));
  }

  cancel(orgId: number, id: number, actor: Actor): Promise<ReturnView> {
    return this.step(orgId, id, actor, 'cancel', 'canceled', ['requested', 'approved'], async ({ now }) => ({
      patch: { status: 'canceled', canceled_at: now },
    }));
  }

  /** What came back (all that was asked when `items` is absent), restocked at `location_id` when given. */
  receive(orgId: number, id: number, input: ReceiveInput, actor: Actor): Promise<ReturnView> {
    return this.step(orgId, id, actor, 'receive', 'received', ['approved'], async (s) => {
      const received = receivedOf(s.found, input.items);
      await s.repo.setReceived(id, received);
      const events: Event[] = [];
      if (input.location_id !== undefined) {
        if (!(await s.repo.locationExists(orgId, input.location_id)))
          throw invalidField(
            ['body', 'location_id'],
            'No stock location of this shop has this id',
            input.location_id,
          );
        const levels = await this.restock(s, orgId, received, input.location_id);
        if (levels.length > 0) events.push(['commerce.inventory.updated', { levels }]);
      }
      return {
        patch: { status: 'received', received_at: s.now, location_id: input.location_id ?? null },
        events,
      };
    });
  }

  /**
   * Refunds a received return through the refund core: by default what its received units were
   * paid (their share of the item's subtotal, with the item's tax when the tax was added to the
   * prices), or `amount` (major units). Idempotency key per return and payment: a return is
   * refunded once, so a retry after a lost commit is answered by the provider's first refund.
   */
  refund(
    orgId: number,
    id: number,
    input: { amount?: number; note?: string },
    actor: Actor,
  ): Promise<ReturnView> {
    return this.step(orgId, id, actor, 'refund', 'refunded', ['received'], async (s) => {
      const lines = await this.linesOf(s);
      const amountMinor =
        input.amount === undefined
          ? lines.reduce((sum, l) => sum + l.amountMinor, 0)
          : minorUnits(input.amount, s.order.currency, ['body', 'amount']);
      const { refund } = await this.refunds.refund(s.uow, orgId, s.order, {
        amountMinor,
        reason: 'return',
        note: input.note ?? null,
        returnId: id,
        lines,
        amountLoc: ['body', 'amount'],
        keyOf: (paymentId) => `commerce-return-${id}-refund-payment-${paymentId}`,
      });
      return {
        patch: { status: 'refunded', refunded_at: s.now, refund_id: refund.id },
        data: { refund_id: refund.id, amount: refund.amount },
      };
    });
  }

  private async step(
    orgId: number,
    id: number,
    actor: Actor,
    verb: string,
    done: ReturnStatus,
    from: readonly ReturnStatus[],
    work: (s: Step) => Promise<StepResult>,
  ): Promise<ReturnView> {
    return this.log.change(orgId, async (uow) => {
      const repo = this.repo.withTx(uow.trx);
      const before = await repo.one(orgId, id);
      if (before === null) throw returnNotFound();
      const order = (await repo.order(orgId, Number(before.ret.order_id), true))!;
      // Read again under the order's lock: a concurrent step of the same return has committed.
      const found = (await repo.one(orgId, id))!;
      if (!from.includes(found.ret.status)) throw returnTransition(found.ret.status, done);
      const now = new Date(this.ctx.clock.now());
      const result = await work({ uow, repo, order, found, now });
      await repo.update(id, { ...result.patch, updated_at: now });
      await auditChange(this.ctx, uow, actor, orgId, `commerce.return.${verb}`, id);
      return {
        result: returnView((await repo.one(orgId, id))!),
        events: [
          [`commerce.return.${done}`, { id, order_id: order.id, ...result.data }],
          ...(result.events ?? []),
        ],
      };
    });
  }

  /** The received units' lines: per item, its paid amount times received over ordered, rounded. */
  private async linesOf(s: Step): Promise<RefundLine[]> {
    const items = new Map((await s.repo.orderItems(s.order.id)).map((i) => [Number(i.id), i]));
    const lines: RefundLine[] = [];
    for (const r of s.found.items) {
      const quantity = r.received_quantity ?? 0;
      const item = items.get(Number(r.order_item_id));
      if (quantity === 0 || item === undefined) continue;
      const paid = Number(item.subtotal_minor) + (s.order.taxAdded ? Number(item.tax_minor) : 0);
      lines.push({
        orderItemId: Number(r.order_item_id),
        quantity,
        amountMinor: Math.round((paid * quantity) / item.quantity),
      });
    }
    return lines;
  }

  /** Received units back on the shelf, SKU by SKU in SKU order (as completion locks levels). */
  private async restock(
    s: Step,
    orgId: number,
    received: ReadonlyMap<number, number>,
    locationId: number,
  ): Promise<{ sku: string; stock_location_id: number; stocked_quantity: number }[]> {
    const bySku = new Map<string, number>();
    for (const item of await s.repo.orderItems(s.order.id)) {
      const quantity = received.get(Number(item.id)) ?? 0;
      if (item.sku !== null && quantity > 0) bySku.set(item.sku, (bySku.get(item.sku) ?? 0) + quantity);
    }
    const levels = [];
    for (const sku of [...bySku.keys()].sort())
      levels.push({
        sku,
        stock_location_id: locationId,
        stocked_quantity: await s.repo.restock(orgId, sku, locationId, bySku.get(sku)!, s.now),
      });
    return levels;
  }
}

/** Item id → units received: each item of the return at most once, no more than asked; 422 naming the field. */
function receivedOf(
  found: ReturnWithItems,
  given: readonly { item_id: number; quantity: number }[] | undefined,
): Map<number, number> {
  const asked = new Map(found.items.map((i) => [Number(i.order_item_id), i.quantity]));
  if (given === undefined) return asked;
  const received = new Map([...asked.keys()].map((k) => [k, 0]));
  const seen = new Set<number>();
  given.forEach((item, i) => {
    const most = asked.get(item.item_id);
    if (most === undefined || seen.has(item.item_id))
      throw invalidField(['body', 'items', i, 'item_id'], 'Each item of the return once', item.item_id);
    seen.add(item.item_id);
    if (item.quantity > most)
      throw invalidField(
        ['body', 'items', i, 'quantity'],
        `Item ${item.item_id}: ${most} were asked for`,
        item.quantity,
      );
    received.set(item.item_id, item.quantity);
  });
  return received;
}
