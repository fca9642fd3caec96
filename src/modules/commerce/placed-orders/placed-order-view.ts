import { Type } from 'typebox';
import { describes, IsoTime, Nullable, type JsonView } from '../../../kernel/http/view-schemas.ts';
import type { CommerceOrderItemRow } from '../commerce-tables.ts';
import { majorUnits } from '../money/money-amounts.ts';
import type { PlacedOrderRow } from './placed-orders-repository.ts';

/**
 * The shopper's views name the columns they show (Pick): a column added to an order is not
 * published on the Store API until chosen here.
 */
export type PlacedOrderItemView = JsonView<
  Pick<CommerceOrderItemRow, 'id' | 'variant_id' | 'product_id' | 'title' | 'sku' | 'quantity' | 'metadata'>
> & { unit_price: number; subtotal: number };

/** An order as its shopper sees it: amounts as numbers in major units of its currency. */
export type PlacedOrderView = JsonView<
  Pick<
    PlacedOrderRow,
    | 'id'
    | 'display_id'
    | 'status'
    | 'email'
    | 'shipping_address'
    | 'payment_status'
    | 'fulfillment_status'
    | 'created_at'
  >
> & {
  currency_code: string;
  items: PlacedOrderItemView[];
  subtotal: number;
  shipping_total: number;
  tax_total: number;
  discount_total: number;
  total: number;
};

const idOrNull = (id: number | null): number | null => (id === null ? null : Number(id));

function itemView(item: CommerceOrderItemRow, currency: string): PlacedOrderItemView {
  return {
    id: Number(item.id),
    variant_id: idOrNull(item.variant_id),
    product_id: idOrNull(item.product_id),
    title: item.title,
    sku: item.sku,
    quantity: item.quantity,
    unit_price: majorUnits(item.unit_price_minor, currency),
    subtotal: majorUnits(item.subtotal_minor, currency),
    metadata: item.metadata,
  };
}

/** The Store API's order (the order read, the lookup, a cart's completion). */
export function placedOrderView(
  order: PlacedOrderRow,
  items: readonly CommerceOrderItemRow[],
): PlacedOrderView {
  const money = (minor: string | number): number => majorUnits(minor, order.currency);
  return {
    id: Number(order.id),
    display_id: idOrNull(order.display_id),
    status: order.status,
    email: order.email,
    currency_code: order.currency,
    items: items.map((i) => itemView(i, order.currency)),
    shipping_address: order.shipping_address,
    subtotal: money(order.subtotal_minor),
    shipping_total: money(order.shipping_total_minor),
    tax_total: money(order.tax_total_minor),
    discount_total: money(order.discount_total_minor),
    total: money(order.total_minor),
    payment_status: order.payment_status,
    fulfillment_status: order.fulfillment_status,
    created_at: new Date(order.created_at).toISOString(),
  };
}

const Amount = (description: string) => Type.Number({ description: `${description}, in major units` });

const PlacedOrderItemResponse = describes<PlacedOrderItemView>()(
  Type.Object({
    id: Type.Integer(),
    variant_id: Nullable(Type.Integer()),
    product_id: Nullable(Type.Integer()),
    title: Type.String(),
    sku: Nullable(Type.String()),
    quantity: Type.Integer(),
    unit_price: Amount('price of one'),
    subtotal: Amount('quantity × unit price'),
    metadata: Type.Record(Type.String(), Type.Unknown()),
  }),
);

export const PlacedOrderResponse = describes<PlacedOrderView>()(
  Type.Object({
    id: Type.Integer(),
    display_id: Nullable(Type.Integer({ description: 'the order number, counted per shop from 1' })),
    status: Type.String({ description: '`pending` once placed' }),
    email: Nullable(Type.String()),
    currency_code: Type.String({ description: 'ISO 4217, upper case' }),
    items: Type.Array(PlacedOrderItemResponse),
    shipping_address: Nullable(Type.Record(Type.String(), Type.Unknown())),
    subtotal: Amount('the items'),
    shipping_total: Amount('shipping'),
    tax_total: Amount('tax'),
    discount_total: Amount('discounts'),
    total: Amount('what the shopper pays'),
    payment_status: Type.String(),
    fulfillment_status: Type.String(),
    created_at: IsoTime,
  }),
);
