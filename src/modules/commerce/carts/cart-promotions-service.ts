import type { Transaction } from 'kysely';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import { cartView, totalsOf, type CartView, type LoadedCart } from './cart-view.ts';
import { CartsRepository } from './carts-repository.ts';
import type { CartScope, CartsService } from './carts-service.ts';
import type { CommerceContext } from '../commerce-context.ts';
import type { CommerceTables } from '../commerce-tables.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import { majorUnits } from '../money/money-amounts.ts';
import { ruleOf } from '../promotions/cart-promotion-rules.ts';
import { codeRefused } from '../promotions/promotion-errors.ts';
import { refusalOf } from '../promotions/promotion-discounts.ts';
import { PromotionsRepository, type PromotionRow } from '../promotions/promotions-repository.ts';

/**
 * A shopper's codes on a cart (`POST`/`DELETE .../store/carts/{id}/promotions`): the cart locked
 * as every cart change locks it, the code checked and stored, `commerce.cart.updated` announced,
 * and the cart answered with its discounts re-computed.
 */
export class CartPromotionsService {
  private readonly repo: PromotionsRepository;

  constructor(
    private readonly ctx: CommerceContext,
    private readonly log: ShopEventLog,
    private readonly carts: CartsService,
  ) {
    this.repo = new PromotionsRepository(ctx.db);
  }

  private now(): Date {
    return new Date(this.ctx.clock.now());
  }

  /** Applies a code, or 422 naming `code` with why not (promotion-errors.ts). */
  async apply(scope: CartScope, cartId: number, code: string): Promise<CartView> {
    return this.change(scope, cartId, async (trx, loaded) => {
      const repo = this.repo.withTx(trx);
      const promotion = await repo.byCode(scope.orgId, code);
      await this.check(repo, promotion, loaded, code);
      await repo.attach(cartId, Number(promotion!.id), this.now());
    });
  }

  /** Takes a code off the cart; a code the cart does not hold leaves it as it is. */
  async remove(scope: CartScope, cartId: number, code: string | undefined): Promise<CartView> {
    if (code === undefined || code.trim() === '')
      throw invalidField(['body', 'code'], 'Give the code to remove (JSON body or query)', code ?? null);
    return this.change(scope, cartId, async (trx) => {
      const repo = this.repo.withTx(trx);
      const promotion = await repo.byCode(scope.orgId, code);
      if (promotion !== null) await repo.detach(cartId, Number(promotion.id));
    });
  }

  private async change(
    scope: CartScope,
    cartId: number,
    work: (trx: Transaction<CommerceTables>, loaded: LoadedCart) => Promise<void>,
  ): Promise<CartView> {
    return this.log.change(scope.orgId, async ({ trx }) => {
      const loaded = await this.carts.lock(trx, scope, cartId);
      await work(trx, loaded);
      await new CartsRepository(trx).updateCart(cartId, {}, this.now());
      const view = cartView(await this.carts.load(scope, cartId, trx));
      return { result: view, events: [['commerce.cart.updated', { id: cartId, mode: scope.mode }]] };
    });
  }

  /** Unknown (or not active), not started, expired, used up, used by this e-mail, minimum, currency. */
  private async check(
    repo: PromotionsRepository,
    promotion: PromotionRow | null,
    loaded: LoadedCart,
    code: string,
  ): Promise<void> {
    if (promotion === null || promotion.status !== 'active') throw codeRefused('unknown', code);
    const now = this.now();
    if (promotion.starts_at !== null && new Date(promotion.starts_at) > now)
      throw codeRefused('not_started', code);
    if (promotion.ends_at !== null && new Date(promotion.ends_at) <= now) throw codeRefused('expired', code);
    if (promotion.usage_limit !== null && promotion.used >= promotion.usage_limit)
      throw codeRefused('used_up', code);
    const email = loaded.cart.email;
    if (
      promotion.per_customer_limit !== null &&
      email !== null &&
      (await repo.usesBy(Number(promotion.id), email)) >= promotion.per_customer_limit
    )
      throw codeRefused('customer_limit', code);
    const currency = loaded.cart.currency_code;
    const refusal = refusalOf(ruleOf(promotion), currency, totalsOf(loaded).subtotal);
    if (refusal?.why === 'currency') throw codeRefused('currency', code, ` (${currency})`);
    if (refusal?.why === 'min_subtotal')
      throw codeRefused('min_subtotal', code, ` (${majorUnits(refusal.minimum, currency)} ${currency})`);
  }
}
