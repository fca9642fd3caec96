import { Type } from 'typebox';
import { CurrencyCode, Name, partialOf } from '../shared/commerce-http-schemas.ts';
import { PAYMENT_PROVIDERS } from './shop-region-view.ts';

export const CreateRegionBody = Type.Object(
  {
    name: Name,
    currency_code: CurrencyCode,
    countries: Type.Array(
      Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2 (DE, fr)' }),
      { maxItems: 250, uniqueItems: true },
    ),
    tax_rate: Type.Optional(
      Type.Number({ minimum: 0, maximum: 100, description: 'percent, at most 4 decimals kept' }),
    ),
    tax_inclusive: Type.Optional(Type.Boolean()),
    payment_providers: Type.Optional(
      Type.Array(Type.Union(PAYMENT_PROVIDERS.map((p) => Type.Literal(p))), {
        minItems: 1,
        uniqueItems: true,
        description: '`manual` (pay later, bank transfer) and/or `stripe`; default [`manual`]',
      }),
    ),
  },
  { additionalProperties: false },
);
export const UpdateRegionBody = partialOf(CreateRegionBody);
