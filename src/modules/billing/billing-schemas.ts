import { Type } from 'typebox';
import { ERROR_BODIES } from '../../kernel/http/error-schemas.ts';
import { describes, IsoTime, Nullable } from '../../kernel/http/view-schemas.ts';
import type { InvoiceSummaryView, InvoiceView, TransactionView } from './billing-view.ts';

/** `page`/`limit` 50/200 (above → 422), `with_total=true` for `{items,total,page,limit,counts}`. */
const paging = {
  page: Type.Integer({ minimum: 1, default: 1 }),
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  with_total: Type.Optional(Type.Boolean()),
};

export const InvoicesQuery = Type.Object({
  ...paging,
  status_filter: Type.Optional(
    Type.String({
      maxLength: 32,
      description:
        '`open` (unpaid and overdue), `draft`, `unpaid`, `paid`, `cancelled`, `refunded`, `overdue`',
    }),
  ),
});

export const TransactionsQuery = Type.Object({
  ...paging,
  type_filter: Type.Optional(
    Type.String({
      maxLength: 32,
      description:
        '`payment`, `refund`, `credit` (credit_add and credit_deduct), `credit_add`, `credit_deduct`',
    }),
  ),
});

export const InvoiceParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 }) });

export const PayBody = Type.Object(
  {
    method: Type.Union([Type.Literal('credit'), Type.Literal('card')]),
    /** The provider's payment method (`pm_…`); the payer's default when absent. */
    payment_method: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  },
  { additionalProperties: false },
);

export const TopUpBody = Type.Object(
  {
    amount: Type.Union([Type.Number(), Type.String({ maxLength: 32 })], {
      description: 'Major units, a decimal with at most 2 decimals, > 0 and at most 10000',
    }),
    payment_method: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  },
  { additionalProperties: false },
);

const summaryFields = {
  id: Type.Integer(),
  number: Type.String(),
  customer_id: Nullable(
    Type.Integer({ description: "The organization's storefront customer who pays it, else null" }),
  ),
  seller: Type.Enum(['platform', 'organization'], {
    description: '`organization` when the organization sells to its customer (merchant_of_record)',
  }),
  status: Type.Enum(['draft', 'unpaid', 'paid', 'cancelled', 'refunded', 'overdue']),
  currency: Type.String(),
  subtotal: Type.Number(),
  tax: Type.Number(),
  total: Type.Number(),
  amount_paid: Type.Number(),
  amount_due: Type.Number(),
  amount_refunded: Type.Number({ description: 'What of amount_paid went back to the payer' }),
  due_at: IsoTime,
  paid_at: Nullable(IsoTime),
  created_at: IsoTime,
};

export const InvoiceSummaryResponse = describes<InvoiceSummaryView>()(Type.Object(summaryFields));

export const InvoiceResponse = describes<InvoiceView>()(
  Type.Object({
    ...summaryFields,
    lines: Type.Array(
      Type.Object({
        description: Type.String(),
        quantity: Type.Integer(),
        unit_amount: Type.Number(),
        amount: Type.Number(),
        service_id: Nullable(Type.Integer()),
      }),
    ),
    service_ids: Type.Array(Type.Integer()),
  }),
);

export const TransactionResponse = describes<TransactionView>()(
  Type.Object({
    id: Type.Integer(),
    type: Type.Enum(['payment', 'refund', 'chargeback', 'credit_add', 'credit_deduct']),
    amount: Type.Number(),
    currency: Type.String(),
    balance_after: Type.Number(),
    invoice_id: Nullable(Type.Integer()),
    gateway: Type.String(),
    created_at: IsoTime,
  }),
);

export const CreditResponse = Type.Object({ balance: Type.Number(), currency: Type.String() });

const pagedOf = <S extends ReturnType<typeof Type.Object>>(item: S) =>
  Type.Union([
    Type.Array(item),
    Type.Object({
      items: Type.Array(item),
      total: Type.Integer(),
      page: Type.Integer(),
      limit: Type.Integer(),
      counts: Type.Record(Type.String(), Type.Integer()),
    }),
  ]);

export const InvoicesResponse = pagedOf(InvoiceSummaryResponse);
export const TransactionsResponse = pagedOf(TransactionResponse);

/** A list's 422: a bad query, or a filter outside its words. */
export const Filter422 = Type.Union([
  ERROR_BODIES[422],
  Type.Object({ error: Type.String(), allowed: Type.Array(Type.String()) }),
]);
