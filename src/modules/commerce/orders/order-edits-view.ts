import { Type } from 'typebox';
import { describes, Nullable, type JsonView } from '../../../kernel/http/view-schemas.ts';
import type { CommerceOrderNoteRow } from '../commerce-tables.ts';
import { OrderDocumentResponse, type OrderDocumentView } from '../documents/document-view.ts';
import type { OrderRow } from './order-edits-repository.ts';

const iso = (d: Date): string => new Date(d).toISOString();

export type OrderNoteView = JsonView<Omit<CommerceOrderNoteRow, 'org_id' | 'order_id'>>;
/**
 * An order with its notes, oldest first, and its documents (invoice, credit notes); `total` as the
 * orders list shows it (decimal text).
 */
export type OrderDetailView = JsonView<Omit<OrderRow, 'org_id'>> & {
  notes: OrderNoteView[];
  documents: OrderDocumentView[];
};

export function orderNoteView(n: CommerceOrderNoteRow): OrderNoteView {
  return { id: Number(n.id), body: n.body, author: n.author, created_at: iso(n.created_at) };
}

export function orderDetailView(
  o: OrderRow,
  notes: readonly CommerceOrderNoteRow[],
  documents: OrderDocumentView[],
): OrderDetailView {
  return {
    id: Number(o.id),
    order_number: o.order_number,
    email: o.email,
    customer_id: o.customer_id === null ? null : Number(o.customer_id),
    status: o.status,
    display_id: o.display_id === null ? null : Number(o.display_id),
    payment_status: o.payment_status,
    fulfillment_status: o.fulfillment_status,
    canceled_at: o.canceled_at === null ? null : iso(o.canceled_at),
    currency: o.currency,
    total: o.total,
    region_id: o.region_id === null ? null : Number(o.region_id),
    sales_channel_id: o.sales_channel_id === null ? null : Number(o.sales_channel_id),
    metadata: o.metadata,
    placed_at: iso(o.placed_at),
    created_at: iso(o.created_at),
    updated_at: iso(o.updated_at),
    notes: notes.map(orderNoteView),
    documents,
  };
}

export const OrderNoteResponse = describes<OrderNoteView>()(
  Type.Object({
    id: Type.Integer(),
    body: Type.String(),
    author: Type.String({ description: '`key:<id>` (an organization key) or `user:<id>` (a member)' }),
    created_at: Type.String(),
  }),
);

export const OrderDetailResponse = describes<OrderDetailView>()(
  Type.Object({
    id: Type.Integer(),
    order_number: Type.String(),
    email: Nullable(Type.String()),
    customer_id: Nullable(Type.Integer()),
    status: Type.String(),
    display_id: Nullable(Type.Integer({ description: 'the shopper’s order number (Store API orders)' })),
    payment_status: Type.String({
      description:
        '`not_paid`, `authorized`, `captured`, `partially_refunded`, `refunded`, `canceled`, `not_required`',
    }),
    fulfillment_status: Type.String({
      description: '`not_fulfilled`, `partially_fulfilled`, `fulfilled`, `shipped`, `delivered`, `canceled`',
    }),
    canceled_at: Nullable(Type.String()),
    currency: Type.String(),
    total: Type.String({ description: 'decimal, as text (as the orders list shows it)' }),
    region_id: Nullable(Type.Integer()),
    sales_channel_id: Nullable(Type.Integer()),
    metadata: Type.Record(Type.String(), Type.Unknown()),
    placed_at: Type.String(),
    created_at: Type.String(),
    updated_at: Type.String(),
    notes: Type.Array(OrderNoteResponse),
    documents: Type.Array(OrderDocumentResponse, {
      description: 'the invoice and credit notes, oldest first',
    }),
  }),
);
