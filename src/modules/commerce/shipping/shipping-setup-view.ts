import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type { CommerceShippingOptionRow, CommerceShippingProfileRow } from '../commerce-tables.ts';
import { majorUnits } from '../money/money-amounts.ts';
import type { ShippingOptionWithCurrency } from './shipping-setup-repository.ts';

const iso = (d: Date): string => new Date(d).toISOString();

export type ShippingProfileView = JsonView<Omit<CommerceShippingProfileRow, 'org_id'>>;
/** A shipping option: its amounts in major units of its region's currency. */
export type ShippingOptionView = JsonView<
  Omit<CommerceShippingOptionRow, 'org_id' | 'amount' | 'min_subtotal' | 'max_subtotal' | 'weight_rates'>
> & {
  currency_code: string;
  amount: number | null;
  weight_rates: { up_to_grams: number | null; amount: number }[];
  min_subtotal: number | null;
  max_subtotal: number | null;
};

export function shippingProfileView(r: CommerceShippingProfileRow): ShippingProfileView {
  return {
    id: Number(r.id),
    name: r.name,
    type: r.type,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

export function shippingOptionView(r: ShippingOptionWithCurrency): ShippingOptionView {
  const major = (v: string | number | null): number | null =>
    v === null ? null : majorUnits(v, r.currency_code);
  return {
    id: Number(r.id),
    name: r.name,
    region_id: Number(r.region_id),
    shipping_profile_id: Number(r.shipping_profile_id),
    currency_code: r.currency_code,
    price_type: r.price_type,
    amount: major(r.amount),
    weight_rates: r.weight_rates.map((w) => ({
      up_to_grams: w.up_to_grams,
      amount: majorUnits(w.amount, r.currency_code),
    })),
    min_subtotal: major(r.min_subtotal),
    max_subtotal: major(r.max_subtotal),
    is_return: r.is_return,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}
