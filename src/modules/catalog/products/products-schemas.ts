import { Type } from 'typebox';
import { pagePerPageQuery } from '../../../kernel/paging/paging.ts';
import { describes, IsoTime, Nullable } from '../../../kernel/http/view-schemas.ts';
import type { ProductView } from './product-view.ts';
import type { LocationAvailabilityView } from './products-service.ts';

const JsonObject = Nullable(Type.Record(Type.String(), Type.Unknown()));
/** A location as an availability answer names it (a product's locations add `orderable`). */
const placeFields = {
  id: Type.Integer(),
  code: Type.String(),
  name: Type.String(),
  country_code: Type.String(),
  available: Type.Boolean(),
  reason: Nullable(Type.String()),
};
const Stock = Type.Union([Type.Literal('in_stock'), Type.Literal('low_stock'), Type.Literal('out_of_stock')]);

/** Products in catalogue order, page/per_page 100/200. */
export const ListProductsQuery = pagePerPageQuery(100, 200, {
  /** `group_name`, ignoring case. */
  group: Type.Optional(Type.String({ maxLength: 100 })),
  /** The hardware tier's slug. */
  hardware_tier: Type.Optional(Type.String({ maxLength: 64 })),
  hardware_tier_id: Type.Optional(Type.Integer({ minimum: 1 })),
});

export const ProductParams = Type.Object({ product_id: Type.Integer({ minimum: 1 }) });

export const ProductResponse = describes<ProductView>()(
  Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    slug: Type.String(),
    description: Nullable(Type.String()),
    group_name: Nullable(Type.String()),
    module_name: Type.String(),
    hardware_tier_id: Nullable(Type.Integer()),
    hardware_tier: Nullable(
      Type.Object({
        id: Type.Integer(),
        slug: Type.String(),
        name: Type.String(),
        code: Type.String(),
        description: Nullable(Type.String()),
      }),
    ),
    status: Type.String(),
    config_schema: JsonObject,
    sort_order: Type.Integer(),
    stock_limit: Nullable(Type.Integer()),
    metadata: JsonObject,
    pricing: Type.Array(
      Type.Object({
        id: Type.Integer(),
        product_id: Type.Integer(),
        name: Type.String(),
        billing_cycle: Type.String(),
        price: Type.Number(),
        setup_fee: Type.Number(),
        currency: Type.String(),
        is_active: Type.Boolean(),
        sort_order: Type.Integer(),
        metadata: JsonObject,
        created_at: IsoTime,
      }),
    ),
    config_options: Type.Array(
      Type.Object({
        id: Type.Integer(),
        product_id: Type.Integer(),
        field_name: Type.String(),
        label: Type.String(),
        field_type: Type.String(),
        options: JsonObject,
        default_value: Nullable(Type.String()),
        required: Type.Boolean(),
        price_modifier: Type.Number(),
        sort_order: Type.Integer(),
      }),
    ),
    is_orderable_now: Nullable(Type.Boolean()),
    stock_status: Nullable(Stock),
    availability_reason: Nullable(Type.String()),
    group_is_orderable_now: Nullable(Type.Boolean()),
    group_stock_status: Nullable(Stock),
    locations: Type.Array(Type.Object({ ...placeFields, orderable: Type.Boolean() })),
    created_at: IsoTime,
  }),
);

/** `module` required (vps or container); memory_mb 512, disk_gb 10 (VPS), disk_mb 10240 (container). */
export const AvailabilityQuery = Type.Object({
  module: Type.Union([Type.Literal('vps'), Type.Literal('container')]),
  hardware_tier_id: Type.Optional(Type.Integer({ minimum: 1 })),
  template_id: Type.Optional(Type.Integer({ minimum: 1 })),
  memory_mb: Type.Integer({ minimum: 1, maximum: 16_777_216, default: 512 }),
  disk_gb: Type.Integer({ minimum: 1, maximum: 1_048_576, default: 10 }),
  disk_mb: Type.Integer({ minimum: 1, maximum: 1_073_741_824, default: 10240 }),
});

export const LocationAvailabilityResponse = describes<LocationAvailabilityView>()(Type.Object(placeFields));
