import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type { ConfigOptionRow, HardwareTierRow, PricingRow, ProductRow } from '../catalog-tables.ts';
import type { ProductAvailability, ProductLocationView, StockStatus } from './product-availability.ts';

/** A price as answered: a number, stored and compared as a decimal string. */
export type PricingView = JsonView<Omit<PricingRow, 'price' | 'setup_fee'>> & {
  price: number;
  setup_fee: number;
};

export type ConfigOptionView = JsonView<Omit<ConfigOptionRow, 'price_modifier'>> & { price_modifier: number };

/**
 * A product as `GET /products/` answers it (docs/catalogue-and-services.md, "Catalogue"): its row
 * without the stock the services hold, its tier, prices and options, and whether and where it can
 * be ordered now.
 */
export type ProductView = JsonView<Omit<ProductRow, 'stock_used'>> & {
  hardware_tier: JsonView<HardwareTierRow> | null;
  pricing: PricingView[];
  config_options: ConfigOptionView[];
  is_orderable_now: boolean | null;
  stock_status: StockStatus | null;
  availability_reason: string | null;
  group_is_orderable_now: boolean | null;
  group_stock_status: StockStatus | null;
  locations: ProductLocationView[];
};

const iso = (d: Date | string): string => new Date(d).toISOString();

export function pricingView(p: PricingRow): PricingView {
  return {
    id: Number(p.id),
    product_id: Number(p.product_id),
    name: p.name,
    billing_cycle: p.billing_cycle,
    price: Number(p.price),
    setup_fee: Number(p.setup_fee),
    currency: p.currency,
    is_active: p.is_active,
    sort_order: p.sort_order,
    metadata: p.metadata,
    created_at: iso(p.created_at),
  };
}

export function configOptionView(o: ConfigOptionRow): ConfigOptionView {
  return {
    id: Number(o.id),
    product_id: Number(o.product_id),
    field_name: o.field_name,
    label: o.label,
    field_type: o.field_type,
    options: o.options,
    default_value: o.default_value,
    required: o.required,
    price_modifier: Number(o.price_modifier),
    sort_order: o.sort_order,
  };
}

export function productView(
  p: ProductRow,
  tier: HardwareTierRow | null,
  pricing: readonly PricingRow[],
  options: readonly ConfigOptionRow[],
  availability: ProductAvailability,
  group: { group_is_orderable_now: boolean; group_stock_status: StockStatus } | null,
): ProductView {
  return {
    id: Number(p.id),
    name: p.name,
    slug: p.slug,
    description: p.description,
    group_name: p.group_name,
    module_name: p.module_name,
    hardware_tier_id: p.hardware_tier_id === null ? null : Number(p.hardware_tier_id),
    hardware_tier:
      tier === null
        ? null
        : {
            id: Number(tier.id),
            slug: tier.slug,
            name: tier.name,
            code: tier.code,
            description: tier.description,
          },
    status: p.status,
    config_schema: p.config_schema,
    sort_order: p.sort_order,
    stock_limit: p.stock_limit,
    metadata: p.metadata,
    pricing: pricing.map(pricingView),
    config_options: options.map(configOptionView),
    is_orderable_now: availability.is_orderable_now,
    stock_status: availability.stock_status,
    availability_reason: availability.availability_reason,
    group_is_orderable_now: group?.group_is_orderable_now ?? null,
    group_stock_status: group?.group_stock_status ?? null,
    locations: availability.locations,
    created_at: iso(p.created_at),
  };
}
