import { Type, type TSchema } from 'typebox';
import { InvoiceSummaryResponse, TransactionResponse } from '../../billing/index.ts';

/** `limit`/`offset` 50/500: a larger limit answers 500 (clamped), below 1 is 422. */
const clampedPaging = {
  limit: Type.Integer({
    minimum: 1,
    maximum: 2 ** 31 - 1,
    default: 50,
    description: 'Page size, default 50; above 500 answers 500',
  }),
  offset: Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1, default: 0 }),
  with_total: Type.Optional(Type.Boolean()),
};

const statusFilter = Type.Optional(
  Type.String({
    maxLength: 32,
    description: '`open` (unpaid and overdue), `draft`, `unpaid`, `paid`, `cancelled`, `refunded`, `overdue`',
  }),
);

export const OrgInvoicesQuery = Type.Object({
  ...clampedPaging,
  status_filter: statusFilter,
  q: Type.Optional(
    Type.String({ maxLength: 200, description: "Part of the invoice's number or of the customer's email" }),
  ),
});

export const PortalInvoicesQuery = Type.Object({
  ...clampedPaging,
  status_filter: statusFilter,
  q: Type.Optional(Type.String({ maxLength: 200, description: "Part of the invoice's number" })),
});

export const PortalTransactionsQuery = Type.Object({
  ...clampedPaging,
  type_filter: Type.Optional(
    Type.String({
      maxLength: 32,
      description: '`payment`, `refund`, `chargeback`, `credit_add`, `credit_deduct`',
    }),
  ),
});

const COUNTS = Type.Record(Type.String(), Type.Integer());
const pagedOf = <S extends TSchema, C extends TSchema>(item: S, counts: C) =>
  Type.Union([
    Type.Array(item),
    Type.Object({
      items: Type.Array(item),
      total: Type.Integer(),
      limit: Type.Integer(),
      offset: Type.Integer(),
      counts,
    }),
  ]);

export const OrgInvoicesResponse = pagedOf(
  InvoiceSummaryResponse,
  Type.Record(Type.String(), Type.Union([Type.Integer(), Type.Record(Type.String(), Type.Number())]), {
    description:
      'Per status as if `status_filter` were unset, `all`, `open`, and `outstanding`: what is due on open invoices per currency',
  }),
);
export const PortalInvoicesResponse = pagedOf(InvoiceSummaryResponse, COUNTS);
export const PortalTransactionsResponse = pagedOf(TransactionResponse, COUNTS);

export const OrgParams = Type.Object({ org_slug: Type.String({ minLength: 1, maxLength: 64 }) });
export const OrgInvoiceParams = Type.Object({
  org_slug: Type.String({ minLength: 1, maxLength: 64 }),
  id: Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 }),
});
export const ProductModeParams = Type.Object({
  org_slug: Type.String({ minLength: 1, maxLength: 64 }),
  product_id: Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 }),
});

export const RefundBody = Type.Object(
  {
    amount: Type.Optional(
      Type.Union([Type.Number(), Type.String({ maxLength: 32 })], {
        description: 'Major units, at most what is left to refund; all of it by default',
      }),
    ),
  },
  { additionalProperties: false },
);

const ModeName = Type.Union([Type.Literal('platform_mor'), Type.Literal('merchant_of_record')]);
export const ProductModeBody = Type.Object({ mode: ModeName }, { additionalProperties: false });
export const ProductModeResponse = Type.Object({
  product_id: Type.Integer(),
  mode: ModeName,
  updated_at: Type.String({ format: 'date-time' }),
});
export const ProductModesResponse = Type.Array(ProductModeResponse);
