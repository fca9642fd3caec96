import type { Transaction } from 'kysely';
import type { UnitOfWork } from '../../../kernel/db/unit-of-work.ts';
import type { GiftCardCover } from '../carts/cart-gift-card-cover.ts';
import type { CommercePaymentRow, CommerceTables } from '../commerce-tables.ts';

/** The gift cards of a cart being completed, their rows locked, and what they pay. */
export interface LockedGiftCards {
  readonly cover: GiftCardCover;
  /** What is left for the payment session. */
  readonly dueMinor: number;
}

/** What completion tells the gift cards once the order is written. */
export interface PlacedForGiftCards {
  readonly orgId: number;
  readonly orderId: number;
  readonly email: string;
  readonly currency: string;
  /** The order's lines: those of gift card products issue one card per unit, of the unit price. */
  readonly lines: readonly { productId: number | null; unitPriceMinor: number; quantity: number }[];
  /** Writes a payment of the order (the placed orders' repository, in the same transaction). */
  readonly insertPayment: (row: {
    org_id: number;
    order_id: number;
    provider: string;
    reference: string;
    currency_code: string;
    amount_minor: number;
    captured_minor: number;
    status: string;
  }) => Promise<CommercePaymentRow>;
}

/**
 * What completion asks of the gift cards (gift-cards/gift-card-checkout.ts answers it): the port
 * lives here so that checkout does not depend on the gift cards' folder, which depends on refunds.
 */
export interface CompletionGiftCards {
  /** Locks the cart's applied cards and says what they pay of `total` and what is left to pay. */
  lock(
    trx: Transaction<CommerceTables>,
    cartId: number,
    currency: string,
    total: number,
  ): Promise<LockedGiftCards>;
  /** Takes each card's part and issues the gift cards the order bought, in the order's transaction. */
  settle(uow: UnitOfWork<CommerceTables>, locked: LockedGiftCards, placed: PlacedForGiftCards): Promise<void>;
}
