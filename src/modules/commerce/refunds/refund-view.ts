import { Type } from 'typebox';
import { describes, IsoTime, Nullable, type JsonView } from '../../../kernel/http/view-schemas.ts';
import type { CommerceRefundRow } from '../commerce-tables.ts';
import { majorUnits } from '../money/money-amounts.ts';
import type { RefundWithParts } from './refunds-repository.ts';

/** A refund as the Commerce API answers it: amounts in major units of the order's currency. */
export type RefundView = JsonView<
  Pick<CommerceRefundRow, 'order_id' | 'return_id' | 'currency_code' | 'reason' | 'note' | 'created_at'>
> & {
  id: number;
  /** Major units. */
  amount: number;
  allocations: { payment_id: number; provider: string; amount: number; provider_reference: string | null }[];
  lines: { item_id: number; quantity: number; amount: number }[];
};

export function refundView({ refund: r, allocations, lines }: RefundWithParts): RefundView {
  const money = (minor: string | number): number => majorUnits(minor, r.currency_code);
  return {
    id: Number(r.id),
    order_id: Number(r.order_id),
    return_id: r.return_id === null ? null : Number(r.return_id),
    amount: money(r.amount_minor),
    currency_code: r.currency_code,
    reason: r.reason,
    note: r.note,
    allocations: allocations.map((a) => ({
      payment_id: Number(a.payment_id),
      provider: a.provider,
      amount: money(a.amount_minor),
      provider_reference: a.provider_reference,
    })),
    lines: lines.map((l) => ({
      item_id: Number(l.order_item_id),
      quantity: l.quantity,
      amount: money(l.amount_minor),
    })),
    created_at: new Date(r.created_at).toISOString(),
  };
}

export const RefundResponse = describes<RefundView>()(
  Type.Object({
    id: Type.Integer(),
    order_id: Type.Integer(),
    return_id: Nullable(Type.Integer({ description: 'the return it pays back' })),
    amount: Type.Number({ description: 'major units' }),
    currency_code: Type.String(),
    reason: Type.String({ description: '`return`, `cancel`, or the merchant’s words' }),
    note: Nullable(Type.String()),
    allocations: Type.Array(
      Type.Object({
        payment_id: Type.Integer(),
        provider: Type.String({ description: '`stripe`, `manual` or `gift_card`' }),
        amount: Type.Number(),
        provider_reference: Nullable(Type.String({ description: 'the provider’s refund id' })),
      }),
    ),
    lines: Type.Array(
      Type.Object({ item_id: Type.Integer(), quantity: Type.Integer(), amount: Type.Number() }),
    ),
    created_at: IsoTime,
  }),
);
