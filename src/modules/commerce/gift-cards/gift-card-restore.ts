import type { CommerceContext } from '../commerce-context.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import { GIFT_CARD, type RefundCreatedData } from '../refunds/refund-record.ts';
import { moveBalance } from './gift-card-balance.ts';
import { GiftCardsRepository } from './gift-cards-repository.ts';

/**
 * Gives back to gift cards what a refund allocates to their payments (docs/commerce.md, "Gift
 * cards"): in the refund's transaction, each `gift_card` allocation adds its amount to the card its
 * payment spent (`gift_card:<id>`), as a `restored` transaction row, and announces
 * `commerce.gift_card.adjusted`. A card disabled since keeps the amount, disabled.
 */
export function restoreGiftCardsOnRefund(ctx: CommerceContext, log: ShopEventLog): void {
  log.react('commerce.refund.created', async (uow, orgId, data) => {
    const refund = data as unknown as RefundCreatedData;
    const repo = new GiftCardsRepository(uow.trx);
    for (const allocation of refund.allocations) {
      if (allocation.provider !== GIFT_CARD) continue;
      const reference = await repo.paymentReference(allocation.payment_id);
      const id = Number(reference?.slice(`${GIFT_CARD}:`.length));
      const card = Number.isSafeInteger(id) ? await repo.byId(orgId, id, true) : null;
      if (card === null) continue;
      const restored = await moveBalance(
        repo,
        card,
        { kind: 'restored', amountMinor: allocation.amount, orderId: refund.order_id, refundId: refund.id },
        new Date(ctx.clock.now()),
      );
      await log.announce(uow, orgId, 'commerce.gift_card.adjusted', {
        id,
        amount: allocation.amount,
        balance: Number(restored.balance_minor),
        reason: 'refund',
        refund_id: refund.id,
      });
    }
  });
}
