import type { CommerceContext } from '../commerce-context.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import { cartView, type CartView } from '../carts/cart-view.ts';
import type { CartScope, CartsService } from '../carts/carts-service.ts';
import {
  addressGiftCardBudget,
  cartGiftCardBudget,
  giftCardAddressKey,
  giftCardCartKey,
} from './gift-card-budgets.ts';
import type { GiftCardCodes } from './gift-card-codes.ts';
import { usableCard } from './gift-card-usable.ts';
import { giftCardNotApplied, giftCardUnusable } from './gift-card-errors.ts';
import { GiftCardsRepository } from './gift-cards-repository.ts';

/**
 * Gift cards on a Store API cart (docs/commerce.md, "Gift cards"): a code applied (limited per cart
 * and per client address), or a card removed. A code that cannot pay on this cart — unknown,
 * disabled, expired, empty, another currency — answers one 404, whichever it is. Applying only
 * records the card: what it pays is worked out from its balance whenever the cart is read, and
 * taken at completion.
 */
export class CartGiftCardsService {
  private readonly repo: GiftCardsRepository;

  constructor(
    private readonly ctx: CommerceContext,
    private readonly log: ShopEventLog,
    private readonly carts: CartsService,
    private readonly codes: GiftCardCodes,
  ) {
    this.repo = new GiftCardsRepository(ctx.db);
  }

  async apply(scope: CartScope, cartId: number, code: string, ip: string): Promise<{ cart: CartView }> {
    await this.carts.load(scope, cartId);
    await this.ctx.budgets.charge(cartGiftCardBudget, giftCardCartKey(scope.orgId, cartId));
    await this.ctx.budgets.charge(addressGiftCardBudget, giftCardAddressKey(scope.orgId, ip));
    return this.change(scope, cartId, async (repo, currency) => {
      const card = await repo.byCodeHash(scope.orgId, this.codes.hash(code));
      const now = new Date(this.ctx.clock.now());
      if (card === null || !usableCard(card, currency, now) || Number(card.balance_minor) <= 0)
        throw giftCardUnusable();
      await repo.apply(cartId, Number(card.id), now);
    });
  }

  async remove(scope: CartScope, cartId: number, giftCardId: number): Promise<{ cart: CartView }> {
    return this.change(scope, cartId, async (repo) => {
      if (!(await repo.unapply(cartId, giftCardId))) throw giftCardNotApplied();
    });
  }

  /** One change of an open cart of the key, under its lock, with `commerce.cart.updated`. */
  private async change(
    scope: CartScope,
    cartId: number,
    work: (repo: GiftCardsRepository, currency: string) => Promise<void>,
  ): Promise<{ cart: CartView }> {
    return this.log.change(scope.orgId, async ({ trx }) => {
      const locked = await this.carts.lock(trx, scope, cartId);
      await work(this.repo.withTx(trx), locked.cart.currency_code);
      return {
        result: { cart: cartView(await this.carts.load(scope, cartId, trx)) },
        events: [['commerce.cart.updated', { id: cartId, mode: scope.mode }]],
      };
    });
  }
}
