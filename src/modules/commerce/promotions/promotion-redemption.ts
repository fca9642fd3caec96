import type { Transaction } from 'kysely';
import type { CommerceTables } from '../commerce-tables.ts';
import type { AppliedPromotion } from './promotion-discounts.ts';
import { promotionUnavailable } from './promotion-errors.ts';
import { PromotionsRepository } from './promotions-repository.ts';

/**
 * At completion, in its transaction (checkout/cart-completion.ts): each promotion that discounts
 * the cart (`applied`, from cart-promotion-rules.ts) takes one use, atomically (`used = used + 1`
 * only while a use is left), and is recorded on the order with its discount. None left, or the shopper's e-mail at its per-customer limit,
 * refuses the completion with 409 `promotion_unavailable`: the transaction rolls back, so the cart
 * stays open and nothing is captured. Promotions are taken in id order, so two completions wait on
 * them in the same order and never deadlock.
 */
export async function redeemCartPromotions(
  trx: Transaction<CommerceTables>,
  orgId: number,
  orderId: number,
  email: string,
  applied: readonly AppliedPromotion[],
): Promise<void> {
  const repo = new PromotionsRepository(trx);
  for (const p of applied.filter((a) => a.amount > 0)) {
    if (!(await repo.takeUse(orgId, p.id))) throw promotionUnavailable(p.code, p.id, 'used_up');
    const limit = (await repo.byId(orgId, p.id))!.per_customer_limit;
    if (limit !== null && (await repo.usesBy(p.id, email)) >= limit)
      throw promotionUnavailable(p.code, p.id, 'customer_limit');
    await repo.recordUse({
      org_id: orgId,
      order_id: orderId,
      promotion_id: p.id,
      code: p.code,
      email,
      amount_minor: p.amount,
    });
  }
}
