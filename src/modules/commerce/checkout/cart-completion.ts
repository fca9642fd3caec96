import { createHash } from 'node:crypto';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { PaymentProvider, PaymentRecord } from '../../../kernel/payments/payment-provider.ts';
import { cartCompleted, insufficientInventory } from '../carts/cart-errors.ts';
import type { LoadedCart } from '../carts/cart-view.ts';
import type { CartScope, CartsService } from '../carts/carts-service.ts';
import type { CommerceContext } from '../commerce-context.ts';
import type { Transaction } from 'kysely';
import type { UnitOfWork } from '../../../kernel/db/unit-of-work.ts';
import type { CommercePaymentSessionRow, CommerceTables } from '../commerce-tables.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import type { CompletionGiftCards } from './completion-gift-cards.ts';
import { placedOrderView, type PlacedOrderView } from '../placed-orders/placed-order-view.ts';
import { discountsOfCart } from '../promotions/cart-promotion-rules.ts';
import { promotionUnavailable } from '../promotions/promotion-errors.ts';
import { redeemCartPromotions } from '../promotions/promotion-redemption.ts';
import type { PlacedOrdersFeature } from '../placed-orders/placed-orders-feature.ts';
import {
  cartBeingCompleted,
  idempotencyKeyReused,
  paymentDeclined,
  paymentNotAuthorized,
  paymentRequiresAction,
} from './checkout-errors.ts';
import { CompletionsRepository } from './completions-repository.ts';
import { reserveStock, type Wanted } from './stock-reservation-repository.ts';
import { PaymentSessionsRepository } from './payment-sessions-repository.ts';
import type { PaymentSessionsService } from './payment-sessions-service.ts';
import type { ShopPaymentProviders } from './shop-payment-providers.ts';

/** A completion lock older than this is a crashed process's: the next completion takes it over. */
const LOCK_STALE_MS = 120_000;

export interface CompletionInput {
  readonly accept_terms?: boolean;
}

export interface CompletionAnswer {
  order: PlacedOrderView;
  access_token: string;
}

/** The cart's payment, checked authorized before the order is placed. */
interface AuthorizedPayment {
  readonly session: CommercePaymentSessionRow;
  readonly provider: PaymentProvider;
  readonly record: PaymentRecord;
}

/**
 * `POST .../carts/{cart_id}/complete` (docs/commerce.md, "Checkout"): validates the cart, checks
 * its payment is authorized, then in ONE transaction reserves the stock (stock-reservation-repository.ts),
 * captures the payment, places the order with its items, reservations and payment, closes the cart
 * and records `commerce.order.placed` in the outbox. A decline is a 402 and 3-D Secure a 409 with
 * the client secret, the cart left open. Safe to retry: an Idempotency-Key answers the same order
 * for the same cart and body (also once the first answer was lost), 409 for another body; a cart
 * already completed answers its order; one completion runs at a time per cart (409 meanwhile).
 */
export class CartCompletion {
  private readonly completions: CompletionsRepository;
  private readonly sessionsRepo: PaymentSessionsRepository;

  constructor(
    private readonly ctx: CommerceContext,
    private readonly log: ShopEventLog,
    private readonly carts: CartsService,
    private readonly sessions: PaymentSessionsService,
    private readonly providers: ShopPaymentProviders,
    private readonly orders: PlacedOrdersFeature,
    private readonly giftCards: CompletionGiftCards,
  ) {
    this.completions = new CompletionsRepository(ctx.db);
    this.sessionsRepo = new PaymentSessionsRepository(ctx.db);
  }

  async complete(
    scope: CartScope,
    cartId: number,
    input: CompletionInput,
    key: string | null,
    ip: string,
  ): Promise<CompletionAnswer> {
    const open = await this.carts.isOpen(scope, cartId);
    const hash = createHash('sha256')
      .update(JSON.stringify([cartId, input.accept_terms ?? null]))
      .digest('hex');
    if (key !== null) {
      const seen = await this.completions.byKey(scope.orgId, key);
      if (seen !== null && (Number(seen.cart_id) !== cartId || seen.request_hash !== hash))
        throw idempotencyKeyReused();
      if (seen?.order_id != null) return this.answer(scope.orgId, Number(seen.order_id));
    }
    if (!open) {
      const placed = await this.completions.orderOfCart(scope.orgId, cartId);
      if (placed !== null) return this.answer(scope.orgId, placed);
    }
    await this.sessions.chargeAttempt(scope, cartId, ip);
    const now = this.ctx.clock.now();
    if (!(await this.completions.lock(scope.orgId, cartId, new Date(now), new Date(now - LOCK_STALE_MS))))
      throw cartBeingCompleted();
    try {
      if (key !== null && !(await this.completions.claimKey(scope.orgId, key, cartId, hash, new Date(now)))) {
        const seen = await this.completions.byKey(scope.orgId, key);
        if (seen === null || Number(seen.cart_id) !== cartId || seen.request_hash !== hash)
          throw idempotencyKeyReused();
      }
      return await this.place(scope, cartId, key);
    } finally {
      await this.completions.unlock(cartId);
    }
  }

  /** The answer for an order placed before (a retry, a completed cart). */
  private async answer(orgId: number, orderId: number): Promise<CompletionAnswer> {
    const placed = (await this.orders.repository.orderWithItems(orgId, orderId))!;
    return {
      order: placedOrderView(placed.order, placed.items),
      access_token: this.orders.tokens.issue(orgId, orderId),
    };
  }

  /**
   * Everything from the cart's lock on, in the one transaction: the cart read under its lock, its
   * readiness, its payment at the provider, the stock, the order. A cart another completion closed
   * meanwhile answers that completion's order.
   */
  private async place(scope: CartScope, cartId: number, key: string | null): Promise<CompletionAnswer> {
    let payment = null as AuthorizedPayment | null;
    try {
      return await this.log.change(scope.orgId, async (uow) => {
        const { trx } = uow;
        const locked = await this.carts.lock(trx, scope, cartId);
        checkReady(locked);
        const totals = this.carts.totals(locked);
        // The applied gift cards, locked, pay their part; the session must be for the rest.
        const gifts = await this.giftCards.lock(trx, cartId, locked.cart.currency_code, totals.total);
        payment = gifts.dueMinor > 0 ? await this.authorized(trx, locked, gifts.dueMinor) : null;
        const now = new Date(this.ctx.clock.now());
        const reserved = await reserveStock(
          trx,
          scope.orgId,
          scope.salesChannelId,
          await this.wanted(trx, locked),
          now,
        );
        if (!reserved.ok) throw insufficientInventory(reserved.variantId, Math.max(reserved.available, 0));
        const orders = this.orders.repository.withTx(trx);
        const currency = locked.cart.currency_code;
        const order = await orders.insertOrder({
          org_id: scope.orgId,
          display_id: await orders.nextDisplayId(scope.orgId),
          email: locked.cart.email!,
          currency,
          mode: scope.mode,
          cart_id: cartId,
          region_id: locked.cart.region_id === null ? null : Number(locked.cart.region_id),
          sales_channel_id: scope.salesChannelId,
          shipping_address: locked.cart.shipping_address,
          billing_address: locked.cart.billing_address,
          subtotal_minor: totals.subtotal,
          shipping_total_minor: totals.shippingTotal,
          tax_total_minor: totals.taxTotal,
          discount_total_minor: totals.discountTotal,
          total_minor: totals.total,
          payment_status: payment === null && gifts.cover.totalMinor === 0 ? 'not_required' : 'captured',
          metadata: locked.cart.metadata,
        });
        const orderId = Number(order.id);
        const items = await orders.insertItems(
          scope.orgId,
          orderId,
          locked.lines.map((l, i) => ({
            variant_id: l.variant_id === null ? null : Number(l.variant_id),
            product_id: l.product_id === null ? null : Number(l.product_id),
            title: l.variant_title === '' ? l.title : `${l.title} — ${l.variant_title}`,
            sku: l.sku,
            quantity: l.quantity,
            unit_price_minor: Number(l.unit_price),
            subtotal_minor: totals.lineSubtotals[i]!,
            tax_minor: totals.lineTaxes[i]!,
            requires_shipping: l.requires_shipping,
            metadata: l.metadata,
          })),
        );
        const itemOfLine = new Map(locked.lines.map((l, i) => [Number(l.id), Number(items[i]!.id)]));
        await orders.insertReservations(
          reserved.allocations.map((a) => ({
            org_id: scope.orgId,
            order_item_id: itemOfLine.get(a.key)!,
            sku: a.sku,
            stock_location_id: a.stockLocationId,
            quantity: a.quantity,
          })),
        );
        // Before the capture: a promotion used up meanwhile refuses the order with nothing taken.
        const { applied } = discountsOfCart(locked.promotions, locked.lines, currency);
        await redeemCartPromotions(trx, scope.orgId, orderId, locked.cart.email!, applied);
        if (payment !== null) await this.capture(orders, scope.orgId, orderId, cartId, payment);
        else await this.releaseUnneeded(uow, cartId);
        await this.giftCards.settle(uow, gifts, {
          orgId: scope.orgId,
          orderId,
          email: locked.cart.email!,
          currency,
          lines: locked.lines.map((l) => ({
            productId: l.product_id === null ? null : Number(l.product_id),
            unitPriceMinor: Number(l.unit_price),
            quantity: l.quantity,
          })),
          insertPayment: (row) => orders.insertPayment(row),
        });
        await this.carts.markCompleted(trx, cartId);
        if (key !== null) await this.completions.withTx(trx).setOrder(scope.orgId, key, orderId);
        return {
          result: {
            order: placedOrderView(order, items),
            access_token: this.orders.tokens.issue(scope.orgId, orderId),
          },
          events: [
            [
              'commerce.order.placed',
              {
                id: orderId,
                display_id: order.display_id,
                cart_id: cartId,
                currency_code: currency,
                total: totals.total,
              },
            ],
          ],
        };
      });
    } catch (error) {
      // Refused after the payment was authorized (no stock left, a promotion used up): its hold
      // is released at once.
      if (
        payment !== null &&
        (hasCode(error, insufficientInventory.code) || hasCode(error, promotionUnavailable.code))
      )
        await payment.provider.cancel(payment.session.reference).catch(() => undefined);
      if (hasCode(error, cartCompleted.code)) {
        const placed = await this.completions.orderOfCart(scope.orgId, cartId);
        if (placed !== null) return this.answer(scope.orgId, placed);
      }
      throw error;
    }
  }

  /** The cart's payment session, authorized at its provider for the cart's total, or the refusal. */
  private async authorized(
    trx: Transaction<CommerceTables>,
    loaded: LoadedCart,
    total: number,
  ): Promise<AuthorizedPayment> {
    const currency = loaded.cart.currency_code.toLowerCase();
    const session = (await this.sessionsRepo.withTx(trx).ofCart(Number(loaded.cart.id)))[0];
    if (session === undefined) throw paymentNotAuthorized('none');
    if (Number(session.amount_minor) !== total || session.currency_code !== currency)
      throw paymentNotAuthorized('stale');
    const provider = this.providers.get(session.provider);
    if (provider === null) throw paymentNotAuthorized('provider_unavailable');
    const record = await provider.retrieve(session.reference);
    if (record.status === 'requires_action') throw paymentRequiresAction(record.clientSecret);
    if (record.status === 'declined')
      throw paymentDeclined(
        record.declineReason ?? 'The card was declined',
        record.declineCode ?? 'card_declined',
      );
    if (record.status !== 'authorized' && record.status !== 'captured')
      throw paymentNotAuthorized(record.status);
    return { session, provider, record };
  }

  /** Takes the money (once: a retry after a lost commit finds it captured) and records it. */
  private async capture(
    orders: ReturnType<PlacedOrdersFeature['repository']['withTx']>,
    orgId: number,
    orderId: number,
    cartId: number,
    payment: AuthorizedPayment,
  ): Promise<void> {
    const { session, provider } = payment;
    const captured =
      payment.record.status === 'captured'
        ? payment.record
        : await provider.capture(session.reference, `cart-${cartId}-capture-${session.reference}`);
    if (captured.status !== 'captured') throw paymentNotAuthorized(captured.status);
    await orders.insertPayment({
      org_id: orgId,
      order_id: orderId,
      provider: session.provider,
      reference: session.reference,
      currency_code: session.currency_code,
      amount_minor: Number(session.amount_minor),
      captured_minor: captured.amountMinor,
      status: 'captured',
    });
  }

  /**
   * A session started before gift cards came to pay the whole cart: nothing is taken from it, and
   * its hold is released at its provider once the order is committed (best effort, as `drop`).
   */
  private async releaseUnneeded(uow: UnitOfWork<CommerceTables>, cartId: number): Promise<void> {
    for (const session of await this.sessionsRepo.withTx(uow.trx).ofCart(cartId)) {
      const provider = this.providers.get(session.provider);
      if (provider !== null) uow.afterCommit(async () => void (await provider.cancel(session.reference)));
    }
  }

  /** What the order takes from stock: lines of variants that manage inventory and allow no backorder. */
  private async wanted(trx: Transaction<CommerceTables>, loaded: LoadedCart): Promise<Wanted[]> {
    const ids = loaded.lines.flatMap((l) =>
      l.variant_id === null || l.sku === null ? [] : [Number(l.variant_id)],
    );
    if (ids.length === 0) return [];
    const managed = await this.completions.withTx(trx).managedVariants(ids);
    return loaded.lines.flatMap((l) =>
      l.variant_id !== null && l.sku !== null && managed.has(Number(l.variant_id))
        ? [{ key: Number(l.id), variantId: Number(l.variant_id), sku: l.sku, quantity: l.quantity }]
        : [],
    );
  }
}

/** What a cart needs before it completes: an e-mail, items, and a method for every shipped profile. */
function checkReady(loaded: LoadedCart): void {
  const { cart, lines, methods } = loaded;
  if (cart.email === null || cart.email === '')
    throw invalidField(['cart', 'email'], 'The cart needs an e-mail address before it completes', null);
  if (lines.length === 0) throw invalidField(['cart', 'items'], 'The cart has no items', []);
  const chosen = new Set(methods.map((m) => Number(m.shipping_profile_id)));
  const missing = [
    ...new Set(
      lines
        .filter((l) => l.requires_shipping)
        .map((l) => (l.shipping_profile_id === null ? 0 : Number(l.shipping_profile_id))),
    ),
  ].filter((p) => !chosen.has(p));
  if (missing.length > 0)
    throw invalidField(
      ['cart', 'shipping_methods'],
      'Choose a shipping method for every shipping profile of the cart’s items',
      missing,
    );
}

const hasCode = (error: unknown, code: string): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
