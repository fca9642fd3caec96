import { Type } from 'typebox';
import { describes, type JsonView } from '../../../kernel/http/view-schemas.ts';
import type { CommerceRegionRow } from '../commerce-tables.ts';
import type { RegionWithCountries } from './shop-regions-repository.ts';

/** A region: its countries (ISO 3166-1 alpha-2, upper case) and its tax rate as a number (percent). */
export type RegionView = JsonView<Omit<CommerceRegionRow, 'org_id' | 'tax_rate'>> & {
  tax_rate: number;
  countries: string[];
};

export function regionView(r: RegionWithCountries): RegionView {
  return {
    id: Number(r.id),
    name: r.name,
    currency_code: r.currency_code,
    countries: r.countries,
    tax_rate: Number(r.tax_rate),
    tax_inclusive: r.tax_inclusive,
    payment_providers: r.payment_providers,
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

export const PAYMENT_PROVIDERS = ['manual', 'stripe'] as const;

export const RegionResponse = describes<RegionView>()(
  Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    currency_code: Type.String(),
    countries: Type.Array(Type.String()),
    tax_rate: Type.Number({ description: 'percent (19 is 19 %)' }),
    tax_inclusive: Type.Boolean({ description: 'whether prices in this region include tax' }),
    payment_providers: Type.Array(Type.String()),
    created_at: Type.String(),
    updated_at: Type.String(),
  }),
);
