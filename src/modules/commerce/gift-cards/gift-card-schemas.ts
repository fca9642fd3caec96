import { Type } from 'typebox';
import { describes, Nullable } from '../../../kernel/http/view-schemas.ts';
import { CurrencyCode, MajorAmount } from '../shared/commerce-http-schemas.ts';
import type { GiftCardDetailView, GiftCardTransactionView } from './gift-card-view.ts';

const Note = Type.String({ maxLength: 2000 });
const Expiry = Type.String({ format: 'date-time', description: 'from then on the card pays nothing' });

export const IssueGiftCardBody = Type.Object(
  {
    value: { ...MajorAmount, exclusiveMinimum: 0 },
    currency_code: CurrencyCode,
    expires_at: Type.Optional(Nullable(Expiry)),
    note: Type.Optional(Nullable(Note)),
  },
  { additionalProperties: false },
);

export const UpdateGiftCardBody = Type.Object(
  {
    status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('disabled')])),
    expires_at: Type.Optional(Nullable(Expiry)),
    note: Type.Optional(Nullable(Note)),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const AdjustGiftCardBody = Type.Object(
  {
    amount: Type.Number({
      minimum: -1e12,
      maximum: 1e12,
      description: 'major units added to the balance (negative takes); the balance never goes below 0',
    }),
    note: Type.Optional(Nullable(Note)),
  },
  { additionalProperties: false },
);

export const ApplyGiftCardBody = Type.Object(
  { code: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);

const detailFields = {
  id: Type.Integer(),
  code_last4: Type.String(),
  value: Type.Number(),
  balance: Type.Number(),
  currency_code: Type.String(),
  status: Type.String({ description: '`active` or `disabled`' }),
  is_expired: Type.Boolean(),
  expires_at: Nullable(Type.String()),
  note: Nullable(Type.String()),
  order_id: Nullable(Type.Integer({ description: 'the order that bought it' })),
  created_at: Type.String(),
  updated_at: Type.String(),
};

export const GiftCardDetailResponse = describes<GiftCardDetailView>()(Type.Object(detailFields));

export const IssuedGiftCardResponse = Type.Object({
  ...detailFields,
  code: Type.String({ description: 'shown this once: only its last four characters are kept' }),
});

export const GiftCardTransactionResponse = describes<GiftCardTransactionView>()(
  Type.Object({
    id: Type.Integer(),
    kind: Type.Union([
      Type.Literal('issued'),
      Type.Literal('adjusted'),
      Type.Literal('spent'),
      Type.Literal('restored'),
    ]),
    amount: Type.Number(),
    balance_after: Type.Number(),
    order_id: Nullable(Type.Integer()),
    refund_id: Nullable(Type.Integer()),
    note: Nullable(Type.String()),
    created_at: Type.String(),
  }),
);

export const GiftCardWithTransactionsResponse = Type.Object({
  ...detailFields,
  transactions: Type.Array(GiftCardTransactionResponse),
});
