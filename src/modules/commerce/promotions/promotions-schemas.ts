import { Type } from 'typebox';
import { Nullable } from '../../../kernel/http/view-schemas.ts';
import { CurrencyCode, MajorAmount, partialOf } from '../shared/commerce-http-schemas.ts';

const Code = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z0-9][A-Za-z0-9_-]*$',
  description: 'letters, digits, `_` and `-`; unique in the shop in any case (save10 is SAVE10)',
  // A promotion's code is printed on flyers, not a secret like the codes of a second factor or
  // a gift card: answers show it (the API fuzzer reads this mark).
  'x-public': true,
});
const Time = Nullable(Type.String({ format: 'date-time' }));
const Amounts = Type.Array(
  Type.Object({ currency_code: CurrencyCode, amount: MajorAmount }, { additionalProperties: false }),
  { maxItems: 50 },
);
const Ids = Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 500 });

const fields = {
  code: Code,
  kind: Type.Union([Type.Literal('percentage'), Type.Literal('fixed')]),
  value: Type.Optional(
    Type.Number({
      exclusiveMinimum: 0,
      maximum: 100,
      description: 'percentage: the percent off (10 is 10 %), 2 decimals at most',
    }),
  ),
  amounts: Type.Optional({ ...Amounts, description: 'fixed: the amount off per currency (major units)' }),
  applies_to: Type.Optional(
    Type.Union([Type.Literal('order'), Type.Literal('items')], {
      description: '`order` (default): every line; `items`: the lines of product_ids or collection_ids',
    }),
  ),
  product_ids: Type.Optional(Ids),
  collection_ids: Type.Optional(Ids),
  starts_at: Type.Optional(Time),
  ends_at: Type.Optional({ ...Time, description: 'excluded: the promotion ends at this instant' }),
  usage_limit: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 1_000_000_000 }))),
  per_customer_limit: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000 }))),
  min_subtotals: Type.Optional({ ...Amounts, description: 'the least cart subtotal per currency' }),
  is_automatic: Type.Optional(Type.Boolean({ description: 'applied to every cart its conditions fit' })),
  status: Type.Optional(
    Type.Union([Type.Literal('active'), Type.Literal('inactive'), Type.Literal('draft')], {
      description: 'default `active`; only active promotions apply',
    }),
  ),
};
export const CreatePromotionBody = Type.Object(fields, { additionalProperties: false });
export const UpdatePromotionBody = partialOf(CreatePromotionBody);

export const CartCodeBody = Type.Object({ code: Type.String({ minLength: 1, maxLength: 64 }) });
export const CartCodeQuery = Type.Object({
  code: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
});
