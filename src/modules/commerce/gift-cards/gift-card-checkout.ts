import type { Transaction } from 'kysely';
import type { UnitOfWork } from '../../../kernel/db/unit-of-work.ts';
import type { CommerceContext } from '../commerce-context.ts';
import type { CommerceTables } from '../commerce-tables.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import { majorUnits } from '../money/money-amounts.ts';
import { GIFT_CARD } from '../refunds/refund-record.ts';
import { moveBalance } from './gift-card-balance.ts';
import { giftCardCover } from '../carts/cart-gift-card-cover.ts';
import { cartGiftCards } from './gift-card-usable.ts';
import { GiftCardsRepository } from './gift-cards-repository.ts';
import type { GiftCardsService } from './gift-cards-service.ts';
import type {
  CompletionGiftCards,
  LockedGiftCards,
  PlacedForGiftCards,
} from '../checkout/completion-gift-cards.ts';

/**
 * The gift cards' part of a cart's completion (docs/commerce.md, "Gift cards"), in its one
 * transaction: the applied cards locked and their balances read again (the payment session must
 * still be for what is left), then each card's part taken — a transaction row and a
 * `commerce_payments` row `gift_card`, `gift_card:<id>`, captured — and the gift cards the order
 * bought issued, their codes mailed to the order's e-mail once the order is committed.
 */
export class GiftCardCheckout implements CompletionGiftCards {
  constructor(
    private readonly ctx: CommerceContext,
    private readonly log: ShopEventLog,
    private readonly cards: GiftCardsService,
  ) {}

  async lock(
    trx: Transaction<CommerceTables>,
    cartId: number,
    currency: string,
    total: number,
  ): Promise<LockedGiftCards> {
    const rows = await new GiftCardsRepository(trx).appliedTo(cartId, true);
    const cover = giftCardCover(cartGiftCards(rows, currency, new Date(this.ctx.clock.now())), total);
    return { cover, dueMinor: total - cover.totalMinor };
  }

  async settle(
    uow: UnitOfWork<CommerceTables>,
    locked: LockedGiftCards,
    placed: PlacedForGiftCards,
  ): Promise<void> {
    await this.spend(uow, locked, placed);
    await this.issueBought(uow, placed);
  }

  private async spend(
    uow: UnitOfWork<CommerceTables>,
    locked: LockedGiftCards,
    placed: PlacedForGiftCards,
  ): Promise<void> {
    const repo = new GiftCardsRepository(uow.trx);
    const at = new Date(this.ctx.clock.now());
    for (const part of locked.cover.cards) {
      if (part.amountMinor === 0) continue;
      const card = (await repo.byId(placed.orgId, part.id))!;
      const spent = await moveBalance(
        repo,
        card,
        { kind: 'spent', amountMinor: -part.amountMinor, orderId: placed.orderId },
        at,
      );
      await placed.insertPayment({
        org_id: placed.orgId,
        order_id: placed.orderId,
        provider: GIFT_CARD,
        reference: `${GIFT_CARD}:${part.id}`,
        currency_code: placed.currency,
        amount_minor: part.amountMinor,
        captured_minor: part.amountMinor,
        status: 'captured',
      });
      await this.log.announce(uow, placed.orgId, 'commerce.gift_card.adjusted', {
        id: part.id,
        amount: -part.amountMinor,
        balance: Number(spent.balance_minor),
        reason: 'order',
        order_id: placed.orderId,
      });
    }
  }

  /**
   * One card per unit of a gift card product's line. The codes go by mail after the commit (the
   * kernel's mail port; a failure is logged, the order stands): they are kept nowhere, so the
   * order never shows them.
   */
  private async issueBought(uow: UnitOfWork<CommerceTables>, placed: PlacedForGiftCards): Promise<void> {
    const productIds = placed.lines.flatMap((l) => (l.productId === null ? [] : [l.productId]));
    const giftProducts = await new GiftCardsRepository(uow.trx).giftCardProducts(productIds);
    const codes: { code: string; valueMinor: number }[] = [];
    for (const line of placed.lines) {
      if (line.productId === null || !giftProducts.has(line.productId) || line.unitPriceMinor === 0) continue;
      for (let i = 0; i < line.quantity; i++) {
        const { code } = await this.cards.issue(uow, placed.orgId, {
          valueMinor: line.unitPriceMinor,
          currency: placed.currency,
          expiresAt: null,
          note: null,
          orderId: placed.orderId,
        });
        codes.push({ code, valueMinor: line.unitPriceMinor });
      }
    }
    if (codes.length === 0) return;
    const text = [
      `Thank you for your order. Your gift card${codes.length > 1 ? 's' : ''}:`,
      '',
      ...codes.map((c) => `${c.code}  (${placed.currency} ${majorUnits(c.valueMinor, placed.currency)})`),
      '',
      'Enter the code at checkout. Keep it safe: whoever has it can spend it.',
    ].join('\n');
    uow.afterCommit(() => this.ctx.mail.send({ to: placed.email, subject: 'Your gift card', text }));
  }
}
