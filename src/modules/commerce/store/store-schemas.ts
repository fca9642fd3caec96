import { Type } from 'typebox';
import { describes, Nullable } from '../../../kernel/http/view-schemas.ts';
import { CurrencyCode, Name, partialOf, Text } from '../shared/commerce-http-schemas.ts';
import type {
  NewPublishableKeyView,
  PublishableKeyView,
  SalesChannelView,
  StoreSettingsView,
} from './store-view.ts';

const SellerOfRecord = Type.Union([Type.Literal('organization'), Type.Literal('platform')], {
  description:
    'who invoices the shop’s buyers when the organization’s billing mode is `hybrid`: the organization ' +
    '(default) or the platform',
});

export const UpdateStoreBody = Type.Object(
  {
    name: Type.Optional(Nullable(Name)),
    default_currency_code: Type.Optional(CurrencyCode),
    support_email: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 254 }))),
    seller_of_record: Type.Optional(SellerOfRecord),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const StoreResponse = describes<StoreSettingsView>()(
  Type.Object({
    name: Nullable(Type.String()),
    default_currency_code: Type.String(),
    support_email: Nullable(Type.String()),
    seller_of_record: SellerOfRecord,
    updated_at: Type.String(),
  }),
);

export const CreateSalesChannelBody = Type.Object(
  {
    name: Name,
    description: Type.Optional(Nullable(Text)),
    is_disabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export const UpdateSalesChannelBody = partialOf(CreateSalesChannelBody);

export const SalesChannelResponse = describes<SalesChannelView>()(
  Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    description: Nullable(Type.String()),
    is_disabled: Type.Boolean(),
    created_at: Type.String(),
    updated_at: Type.String(),
  }),
);

export const CreatePublishableKeyBody = Type.Object(
  {
    sales_channel_id: Type.Integer({ minimum: 1 }),
    mode: Type.Union([Type.Literal('test'), Type.Literal('live')]),
    label: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  },
  { additionalProperties: false },
);

const keyFields = {
  id: Type.Integer(),
  sales_channel_id: Type.Integer(),
  mode: Type.Union([Type.Literal('test'), Type.Literal('live')]),
  label: Nullable(Type.String()),
  key_prefix: Type.String({ description: 'the key’s first characters, to recognise it' }),
  revoked_at: Nullable(Type.String()),
  created_at: Type.String(),
};
export const PublishableKeyResponse = describes<PublishableKeyView>()(Type.Object(keyFields));
export const NewPublishableKeyResponse = describes<NewPublishableKeyView>()(
  Type.Object({
    ...keyFields,
    key: Type.String({ description: 'the key itself (`pk_test_…`/`pk_live_…`): shown in this answer only' }),
  }),
);
