import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type { CommerceGiftCardTransactionRow } from '../commerce-tables.ts';
import { majorUnits } from '../money/money-amounts.ts';
import type { GiftCardRow } from './gift-cards-repository.ts';

/** A gift card as the Commerce API shows it: never its code (only its last four characters). */
export type GiftCardDetailView = JsonView<
  Pick<
    GiftCardRow,
    'id' | 'code_last4' | 'status' | 'expires_at' | 'note' | 'order_id' | 'created_at' | 'updated_at'
  >
> & { value: number; balance: number; currency_code: string; is_expired: boolean };

/** One change of its balance, in major units. */
export type GiftCardTransactionView = JsonView<
  Pick<CommerceGiftCardTransactionRow, 'id' | 'kind' | 'order_id' | 'refund_id' | 'note' | 'created_at'>
> & { amount: number; balance_after: number };

const iso = (d: Date | null): string | null => (d === null ? null : new Date(d).toISOString());

export function giftCardView(card: GiftCardRow, now: Date): GiftCardDetailView {
  const money = (minor: number | string): number => majorUnits(minor, card.currency);
  return {
    id: Number(card.id),
    code_last4: card.code_last4,
    value: money(card.value_minor),
    balance: money(card.balance_minor),
    currency_code: card.currency,
    status: card.status,
    is_expired: card.expires_at !== null && new Date(card.expires_at).getTime() <= now.getTime(),
    expires_at: iso(card.expires_at),
    note: card.note,
    order_id: card.order_id === null ? null : Number(card.order_id),
    created_at: iso(card.created_at)!,
    updated_at: iso(card.updated_at)!,
  };
}

export function giftCardTransactionView(
  t: CommerceGiftCardTransactionRow,
  currency: string,
): GiftCardTransactionView {
  return {
    id: Number(t.id),
    kind: t.kind,
    amount: majorUnits(t.amount_minor, currency),
    balance_after: majorUnits(t.balance_after_minor, currency),
    order_id: t.order_id === null ? null : Number(t.order_id),
    refund_id: t.refund_id === null ? null : Number(t.refund_id),
    note: t.note,
    created_at: iso(t.created_at)!,
  };
}
