import { Type } from 'typebox';
import { describes, IsoTime, Nullable, type JsonView } from '../../../kernel/http/view-schemas.ts';
import type { CommerceFulfillmentRow, CommerceTables } from '../commerce-tables.ts';
import { majorUnits } from '../money/money-amounts.ts';
import type { FulfillmentWithItems } from './fulfillments-repository.ts';

const iso = (d: Date | null): string | null => (d === null ? null : new Date(d).toISOString());

/** A fulfilment with its items (order item id and quantity). */
export type FulfillmentView = JsonView<Omit<CommerceFulfillmentRow, 'org_id'>> & {
  items: { item_id: number; quantity: number }[];
};

export function fulfillmentView({ fulfillment: f, items }: FulfillmentWithItems): FulfillmentView {
  return {
    id: Number(f.id),
    order_id: Number(f.order_id),
    status: f.status,
    location_id: f.location_id === null ? null : Number(f.location_id),
    items: items.map((i) => ({ item_id: Number(i.order_item_id), quantity: i.quantity })),
    tracking_number: f.tracking_number,
    tracking_url: f.tracking_url,
    created_at: iso(f.created_at)!,
    dispatched_at: iso(f.dispatched_at),
    shipped_at: iso(f.shipped_at),
    delivered_at: iso(f.delivered_at),
    canceled_at: iso(f.canceled_at),
  };
}

/** What a cancel answers: the order's states after it, and what went back to the shopper. */
export type CanceledOrderView = JsonView<
  Pick<
    CommerceTables['commerce_orders'],
    'id' | 'order_number' | 'status' | 'payment_status' | 'fulfillment_status' | 'canceled_at'
  >
> & { currency_code: string; refunded: number };

export function canceledOrderView(
  order: { id: number; order_number: string; payment_status: string; currency: string },
  refundedMinor: number,
  at: Date,
): CanceledOrderView {
  return {
    id: order.id,
    order_number: order.order_number,
    status: 'canceled',
    payment_status: order.payment_status,
    fulfillment_status: 'canceled',
    currency_code: order.currency,
    refunded: majorUnits(refundedMinor, order.currency),
    canceled_at: at.toISOString(),
  };
}

export const FulfillmentResponse = describes<FulfillmentView>()(
  Type.Object({
    id: Type.Integer(),
    order_id: Type.Integer(),
    status: Type.Union([
      Type.Literal('created'),
      Type.Literal('dispatched'),
      Type.Literal('shipped'),
      Type.Literal('delivered'),
      Type.Literal('canceled'),
    ]),
    location_id: Nullable(Type.Integer({ description: 'the stock location it leaves from' })),
    items: Type.Array(Type.Object({ item_id: Type.Integer(), quantity: Type.Integer() })),
    tracking_number: Nullable(Type.String()),
    tracking_url: Nullable(Type.String()),
    created_at: IsoTime,
    dispatched_at: Nullable(IsoTime),
    shipped_at: Nullable(IsoTime),
    delivered_at: Nullable(IsoTime),
    canceled_at: Nullable(IsoTime),
  }),
);

export const CanceledOrderResponse = describes<CanceledOrderView>()(
  Type.Object({
    id: Type.Integer(),
    order_number: Type.String(),
    status: Type.String({ description: '`canceled`' }),
    payment_status: Type.String({
      description: '`refunded`, `canceled` (an authorization released), or as it was',
    }),
    fulfillment_status: Type.String({ description: '`canceled`' }),
    currency_code: Type.String(),
    refunded: Type.Number({ description: 'what the cancel refunded, in major units' }),
    canceled_at: Nullable(IsoTime),
  }),
);
