import type { Kysely, Transaction } from 'kysely';
import type { CommerceTables } from '../commerce-tables.ts';

/** A gift card applied to a cart, as the cart's totals see it (docs/commerce.md, "Gift cards"). */
export interface CartGiftCard {
  readonly id: number;
  readonly code_last4: string;
  readonly balanceMinor: number;
  /** Active, not expired, in the cart's currency: else it covers nothing. */
  readonly usable: boolean;
}

/**
 * Reads the gift cards applied to a cart, first applied first (the gift cards feature gives it
 * to CartsService, so carts know nothing of how gift cards are stored).
 */
export type AppliedGiftCardsReader = (
  db: Kysely<CommerceTables> | Transaction<CommerceTables>,
  cartId: number,
  currency: string,
  now: Date,
) => Promise<CartGiftCard[]>;

/** What the cart's gift cards pay of its total, each in the order applied. */
export interface GiftCardCover {
  readonly cards: readonly { id: number; code_last4: string; amountMinor: number }[];
  readonly totalMinor: number;
}

/**
 * Each card, first applied first, takes min(its balance, what is left of `total`): the amount the
 * shopper still pays (the payment session's) is `total - totalMinor`.
 */
export function giftCardCover(cards: readonly CartGiftCard[], total: number): GiftCardCover {
  let left = total;
  const covered = cards.map((c) => {
    const amountMinor = c.usable ? Math.min(Math.max(c.balanceMinor, 0), left) : 0;
    left -= amountMinor;
    return { id: c.id, code_last4: c.code_last4, amountMinor };
  });
  return { cards: covered, totalMinor: total - left };
}
