import { Type } from 'typebox';
import { limitOffsetQuery } from '../../../kernel/paging/paging.ts';
import { Name, partialOf } from '../shared/commerce-http-schemas.ts';

const Address = Type.Object(
  {
    address_1: Type.Optional(Type.String({ maxLength: 200 })),
    address_2: Type.Optional(Type.String({ maxLength: 200 })),
    city: Type.Optional(Type.String({ maxLength: 100 })),
    postal_code: Type.Optional(Type.String({ maxLength: 20 })),
    province: Type.Optional(Type.String({ maxLength: 100 })),
    country_code: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2}$' })),
  },
  { additionalProperties: false },
);

export const CreateStockLocationBody = Type.Object(
  {
    name: Name,
    address: Type.Optional(Address),
    sales_channel_ids: Type.Optional(
      Type.Array(Type.Integer({ minimum: 1 }), {
        maxItems: 100,
        uniqueItems: true,
        description: 'the sales channels this location’s stock sells in',
      }),
    ),
  },
  { additionalProperties: false },
);
export const UpdateStockLocationBody = partialOf(CreateStockLocationBody);

const Sku = Type.String({ minLength: 1, maxLength: 100 });

export const InventoryQuery = Type.Object({
  ...limitOffsetQuery(50, 200).properties,
  sku: Type.Optional(Sku),
  stock_location_id: Type.Optional(Type.Integer({ minimum: 1 })),
});

export const InventoryBatchBody = Type.Object(
  {
    levels: Type.Array(
      Type.Object(
        {
          sku: Sku,
          stock_location_id: Type.Integer({ minimum: 1 }),
          stocked_quantity: Type.Integer({ minimum: 0, maximum: 1_000_000_000 }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 500 },
    ),
  },
  { additionalProperties: false },
);
