import { Type } from 'typebox';
import { describes, Nullable } from '../../../kernel/http/view-schemas.ts';
import { MajorAmount, Name, partialOf } from '../shared/commerce-http-schemas.ts';
import type { ShippingOptionView, ShippingProfileView } from './shipping-setup-view.ts';

export const CreateShippingProfileBody = Type.Object(
  {
    name: Name,
    type: Type.Optional(Type.String({ minLength: 1, maxLength: 50, description: 'default: `default`' })),
  },
  { additionalProperties: false },
);
export const UpdateShippingProfileBody = partialOf(CreateShippingProfileBody);
export const ShippingProfileResponse = describes<ShippingProfileView>()(
  Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    type: Type.String(),
    created_at: Type.String(),
    updated_at: Type.String(),
  }),
);

const WeightRate = Type.Object(
  {
    up_to_grams: Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000_000 })),
    amount: MajorAmount,
  },
  { additionalProperties: false },
);
const PriceType = Type.Union([Type.Literal('flat'), Type.Literal('weight')]);

const optionFields = {
  name: Name,
  shipping_profile_id: Type.Integer({ minimum: 1 }),
  price_type: PriceType,
  amount: Type.Optional(Nullable(MajorAmount)),
  weight_rates: Type.Optional(
    Type.Array(WeightRate, {
      maxItems: 50,
      description:
        'by weight: brackets by ascending `up_to_grams` (the cart’s weight at most this), the last one may be null (no upper end)',
    }),
  ),
  min_subtotal: Type.Optional(Nullable(MajorAmount)),
  max_subtotal: Type.Optional(Nullable(MajorAmount)),
  is_return: Type.Optional(Type.Boolean()),
};
export const CreateShippingOptionBody = Type.Object(
  { ...optionFields, region_id: Type.Integer({ minimum: 1 }) },
  { additionalProperties: false },
);
/** The region of an option stays: its amounts are in that region's currency. */
export const UpdateShippingOptionBody = partialOf(Type.Object(optionFields, { additionalProperties: false }));
export const ShippingOptionsQuery = Type.Object({ region_id: Type.Optional(Type.Integer({ minimum: 1 })) });

export const ShippingOptionResponse = describes<ShippingOptionView>()(
  Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    region_id: Type.Integer(),
    shipping_profile_id: Type.Integer(),
    currency_code: Type.String({ description: 'the region’s currency: the unit of every amount here' }),
    price_type: PriceType,
    amount: Nullable(Type.Number()),
    weight_rates: Type.Array(Type.Object({ up_to_grams: Nullable(Type.Integer()), amount: Type.Number() })),
    min_subtotal: Nullable(Type.Number()),
    max_subtotal: Nullable(Type.Number()),
    is_return: Type.Boolean(),
    created_at: Type.String(),
    updated_at: Type.String(),
  }),
);
