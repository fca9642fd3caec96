import { Type } from 'typebox';
import { ERROR_BODIES } from '../../kernel/http/error-schemas.ts';
import { describes, IsoTime, Nullable } from '../../kernel/http/view-schemas.ts';
import { limitOffsetQuery } from '../../kernel/paging/paging.ts';
import type { ServiceEventView, ServiceView } from './service-view.ts';

/** What any order names: the plan, where, its config, a label. */
const ORDER_FIELDS = {
  product_id: Type.Integer({ minimum: 1 }),
  pricing_id: Type.Integer({ minimum: 1 }),
  location_id: Type.Optional(Type.Integer({ minimum: 1 })),
  config: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  /** A name of the caller's; the product's name by default. */
  label: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
};

/** An order from the organization's portal: the customer orders for themself. */
export const CustomerOrderBody = Type.Object(
  {
    ...ORDER_FIELDS,
    coupon_code: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'A coupon of the organization (any case); a refused code is 422 naming `coupon_code`',
      }),
    ),
  },
  { additionalProperties: false },
);

export const OrderBody = Type.Object(
  {
    ...ORDER_FIELDS,
    /** Order for this organization (owner or admin). */
    org_slug: Type.Optional(Type.String({ maxLength: 64 })),
    customer_id: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 2 ** 53 - 1,
        description: 'Order for this storefront customer of the organization `org_slug` (owner or admin)',
      }),
    ),
  },
  { additionalProperties: false },
);

/** A service's status, as the list's `status` filter and a service's answer name it. */
export const ServiceStatusWord = Type.Enum([
  'pending',
  'provisioning',
  'active',
  'suspended',
  'pending_termination',
  'terminated',
  'failed',
]);

/** Services by `limit`/`offset` 100/500, newest first; `status`, `resource_type`, `tag`. */
export const ListServicesQuery = Type.Object({
  ...limitOffsetQuery(100, 500).properties,
  status: Type.Optional(Type.String({ maxLength: 32 })),
  resource_type: Type.Optional(Type.String({ maxLength: 32 })),
  tag: Type.Optional(Type.String({ maxLength: 64 })),
});

export const ServiceParams = Type.Object({ service_ref: Type.String({ maxLength: 32 }) });

/** A service's events by `page`/`limit` 50/200. */
export const EventsQuery = Type.Object({
  page: Type.Integer({ minimum: 1, default: 1 }),
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
});

export const ServiceResponse = describes<ServiceView>()(
  Type.Object({
    id: Type.Integer(),
    service_id: Type.Integer(),
    ref: Type.String(),
    label: Type.String(),
    status: ServiceStatusWord,
    status_reason: Nullable(Type.String()),
    product_id: Type.Integer(),
    product_name: Type.String(),
    module_name: Type.String(),
    resource_type: Type.String(),
    pricing_id: Type.Integer(),
    billing_cycle: Type.String(),
    price: Type.Number(),
    currency: Type.String(),
    location_code: Nullable(Type.String()),
    org_id: Nullable(Type.Integer()),
    customer_id: Nullable(
      Type.Integer({ description: 'The organization’s storefront customer it is held for, else null' }),
    ),
    config: Type.Record(Type.String(), Type.Unknown()),
    created_at: IsoTime,
    updated_at: IsoTime,
    next_due_date: Nullable(IsoTime),
    activated_at: Nullable(IsoTime),
    terminated_at: Nullable(IsoTime),
  }),
);

/** An order's answer: the service, and for a priced plan the invoice that pays for it. */
export const OrderResponse = Type.Object({
  ...ServiceResponse.properties,
  invoice_id: Nullable(
    Type.Integer({ description: 'The unpaid invoice of a priced order; null for a free plan' }),
  ),
});

export const ServiceEventResponse = describes<ServiceEventView>()(
  Type.Object({ id: Type.Integer(), type: Type.String(), message: Type.String(), created_at: IsoTime }),
);

/** The list's 422: a bad query, or a `resource_type` outside its words. */
export const ListServices422 = Type.Union([
  ERROR_BODIES[422],
  Type.Object({ error: Type.Literal('invalid_resource_type'), allowed: Type.Array(Type.String()) }),
]);
