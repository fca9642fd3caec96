import type { CartGiftCard } from '../carts/cart-gift-card-cover.ts';
import type { AppliedGiftCardRow, GiftCardRow } from './gift-cards-repository.ts';
import { GiftCardsRepository } from './gift-cards-repository.ts';
import type { AppliedGiftCardsReader } from '../carts/cart-gift-card-cover.ts';

/** Whether a card can pay in `currency` at `now`: active, with a code, not expired. */
export function usableCard(
  card: Pick<GiftCardRow, 'status' | 'code_hash' | 'expires_at' | 'currency'>,
  currency: string,
  now: Date,
): boolean {
  return (
    card.status === 'active' &&
    card.code_hash !== null &&
    card.currency === currency &&
    (card.expires_at === null || new Date(card.expires_at).getTime() > now.getTime())
  );
}

export function cartGiftCards(
  rows: readonly AppliedGiftCardRow[],
  currency: string,
  now: Date,
): CartGiftCard[] {
  return rows.map((r) => ({
    id: Number(r.id),
    code_last4: r.code_last4,
    balanceMinor: Number(r.balance_minor),
    usable: usableCard(r, currency, now),
  }));
}

/** The reader CartsService is given: the cart's applied cards, as its totals see them. */
export const readAppliedGiftCards: AppliedGiftCardsReader = async (db, cartId, currency, now) =>
  cartGiftCards(await new GiftCardsRepository(db).appliedTo(cartId), currency, now);
