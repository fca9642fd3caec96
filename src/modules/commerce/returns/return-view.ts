import { Type } from 'typebox';
import { describes, IsoTime, Nullable, type JsonView } from '../../../kernel/http/view-schemas.ts';
import type { Selectable } from 'kysely';
import type { CommerceReturnRow } from '../commerce-tables.ts';
import type { ReturnWithItems } from './returns-repository.ts';

const iso = (d: Date | null): string | null => (d === null ? null : new Date(d).toISOString());

/** A return with its items and its reason. */
export type ReturnView = JsonView<Omit<Selectable<CommerceReturnRow>, 'org_id'>> & {
  reason: { id: number; value: string; label: string } | null;
  items: { item_id: number; quantity: number; received_quantity: number | null }[];
};

const idOrNull = (n: number | string | null): number | null => (n === null ? null : Number(n));

export function returnView({ ret: r, items, reason }: ReturnWithItems): ReturnView {
  return {
    id: Number(r.id),
    order_id: Number(r.order_id),
    status: r.status,
    reason_id: idOrNull(r.reason_id),
    reason: reason === null ? null : { id: Number(reason.id), value: reason.value, label: reason.label },
    note: r.note,
    shipping_option_id: idOrNull(r.shipping_option_id),
    requested_by: r.requested_by,
    rejection_reason: r.rejection_reason,
    location_id: idOrNull(r.location_id),
    refund_id: idOrNull(r.refund_id),
    items: items.map((i) => ({
      item_id: Number(i.order_item_id),
      quantity: i.quantity,
      received_quantity: i.received_quantity,
    })),
    created_at: iso(r.created_at)!,
    approved_at: iso(r.approved_at),
    rejected_at: iso(r.rejected_at),
    received_at: iso(r.received_at),
    refunded_at: iso(r.refunded_at),
    canceled_at: iso(r.canceled_at),
    updated_at: iso(r.updated_at)!,
  };
}

export const ReturnResponse = describes<ReturnView>()(
  Type.Object({
    id: Type.Integer(),
    order_id: Type.Integer(),
    status: Type.Union([
      Type.Literal('requested'),
      Type.Literal('approved'),
      Type.Literal('received'),
      Type.Literal('refunded'),
      Type.Literal('rejected'),
      Type.Literal('canceled'),
    ]),
    reason_id: Nullable(Type.Integer()),
    reason: Nullable(Type.Object({ id: Type.Integer(), value: Type.String(), label: Type.String() })),
    note: Nullable(Type.String()),
    shipping_option_id: Nullable(Type.Integer({ description: 'the `is_return` shipping option' })),
    requested_by: Type.String({ description: '`shopper` or `merchant`' }),
    rejection_reason: Nullable(Type.String()),
    location_id: Nullable(Type.Integer({ description: 'where received units were restocked' })),
    refund_id: Nullable(Type.Integer()),
    items: Type.Array(
      Type.Object({
        item_id: Type.Integer({ description: 'the order item' }),
        quantity: Type.Integer({ description: 'asked for' }),
        received_quantity: Nullable(Type.Integer({ description: 'came back (once received)' })),
      }),
    ),
    created_at: IsoTime,
    approved_at: Nullable(IsoTime),
    rejected_at: Nullable(IsoTime),
    received_at: Nullable(IsoTime),
    refunded_at: Nullable(IsoTime),
    canceled_at: Nullable(IsoTime),
    updated_at: IsoTime,
  }),
);
