import type { CommerceGiftCardTransactionRow } from '../commerce-tables.ts';
import { majorUnits } from '../money/money-amounts.ts';
import type { GiftCardRow, GiftCardsRepository } from './gift-cards-repository.ts';

/** What moved a balance, and what it refers to. */
export interface BalanceMove {
  readonly kind: CommerceGiftCardTransactionRow['kind'];
  /** Signed minor units. */
  readonly amountMinor: number;
  readonly orderId?: number | null;
  readonly refundId?: number | null;
  readonly note?: string | null;
}

/**
 * Moves a card's balance by one transaction row, under the card's row lock the caller holds: the
 * balance is always the sum of its transactions (never below 0: the caller checks, the table's
 * CHECK refuses). The list's older `balance` column (major units) follows.
 */
export async function moveBalance(
  repo: GiftCardsRepository,
  card: GiftCardRow,
  move: BalanceMove,
  at: Date,
): Promise<GiftCardRow> {
  const after = Number(card.balance_minor) + move.amountMinor;
  await repo.insertTransaction({
    org_id: Number(card.org_id),
    gift_card_id: Number(card.id),
    kind: move.kind,
    amount_minor: move.amountMinor,
    balance_after_minor: after,
    order_id: move.orderId ?? null,
    refund_id: move.refundId ?? null,
    note: move.note ?? null,
    created_at: at,
  });
  return repo.update(
    Number(card.id),
    { balance_minor: after, balance: String(majorUnits(after, card.currency)) },
    at,
  );
}
