import { Type, type Static } from 'typebox';
import { describes, IsoTime, Nullable } from '../../../kernel/http/view-schemas.ts';
import { beforeIdQuery } from '../../../kernel/paging/paging.ts';
import { CurrencyCode, MajorAmount } from '../shared/commerce-http-schemas.ts';
import type { DisputeView } from './dispute-view.ts';
import type { LedgerTransactionView } from './finance-view.ts';
import type { PayoutView } from './payouts-service.ts';
import type { TaxReportRow } from './tax-report.ts';

/** The money side's request and answer schemas (docs/commerce.md, "Balance, ledger, disputes and payouts"). */
export const FinancePageQuery = beforeIdQuery(50, 200);

const Amounts = Type.Array(Type.Object({ currency: Type.String(), amount: Type.Number() }));
export const BalanceResponse = Type.Object({ available: Amounts, pending: Amounts, held: Amounts });

export const LedgerTransactionResponse = describes<LedgerTransactionView>()(
  Type.Object({
    id: Type.Integer(),
    type: Type.String(),
    currency_code: Type.String(),
    order_id: Nullable(Type.Integer()),
    payment_id: Nullable(Type.Integer()),
    refund_id: Nullable(Type.Integer()),
    dispute_id: Nullable(Type.Integer()),
    payout_id: Nullable(Type.Integer()),
    created_at: IsoTime,
    entries: Type.Array(
      Type.Object({ account: Type.String(), amount: Type.Number(), available_on: Nullable(IsoTime) }),
    ),
  }),
);

export const TaxReportQuery = Type.Object({
  month: Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$', description: 'YYYY-MM (UTC)' }),
});
export const TaxReportResponse = Type.Object({
  month: Type.String(),
  countries: Type.Array(
    describes<TaxReportRow>()(
      Type.Object({
        country_code: Nullable(Type.String()),
        currency_code: Type.String(),
        orders: Type.Integer(),
        taxable_sales: Type.Number(),
        tax_collected: Type.Number(),
        refunded_sales: Type.Number(),
        refunded_tax: Type.Number(),
        net_taxable_sales: Type.Number(),
        net_tax: Type.Number(),
      }),
    ),
  ),
});

/** Stripe's dispute evidence, its text fields (https://docs.stripe.com/api/disputes/evidence_object). */
export const EVIDENCE_FIELDS = [
  'access_activity_log',
  'billing_address',
  'cancellation_policy_disclosure',
  'cancellation_rebuttal',
  'customer_email_address',
  'customer_name',
  'customer_purchase_ip',
  'duplicate_charge_explanation',
  'product_description',
  'refund_policy_disclosure',
  'refund_refusal_explanation',
  'service_date',
  'shipping_address',
  'shipping_carrier',
  'shipping_date',
  'shipping_tracking_number',
  'uncategorized_text',
] as const;
const EvidenceText = Type.String({ minLength: 1, maxLength: 20_000 });
export const EvidenceBody = Type.Object(
  Object.fromEntries(EVIDENCE_FIELDS.map((f) => [f, Type.Optional(EvidenceText)])) as Record<
    (typeof EVIDENCE_FIELDS)[number],
    ReturnType<typeof Type.Optional<typeof EvidenceText>>
  >,
  { additionalProperties: false, minProperties: 1 },
);

export const DisputeResponse = describes<DisputeView>()(
  Type.Object({
    id: Type.Integer(),
    order_id: Type.Integer(),
    payment_id: Type.Integer(),
    provider: Type.String(),
    provider_dispute_id: Type.String(),
    amount: Type.Number(),
    currency_code: Type.String(),
    reason: Type.String(),
    status: Type.String(),
    evidence: Type.Record(Type.String(), Type.String()),
    evidence_due_by: Nullable(IsoTime),
    submitted_at: Nullable(IsoTime),
    closed_at: Nullable(IsoTime),
    created_at: IsoTime,
    updated_at: IsoTime,
  }),
);

export const PayoutBody = Type.Object(
  { amount: MajorAmount, currency_code: CurrencyCode },
  { additionalProperties: false },
);
export const PayoutResponse = describes<PayoutView>()(
  Type.Object({
    id: Type.Integer(),
    amount: Type.Number(),
    currency_code: Type.String(),
    status: Type.String(),
    period_start: IsoTime,
    period_end: IsoTime,
    requested_by: Type.Integer(),
    created_at: IsoTime,
  }),
);

const Line = Type.String({ minLength: 1, maxLength: 200 });
const Address = Type.Object(
  {
    line1: Line,
    line2: Type.Optional(Line),
    city: Line,
    postal_code: Type.String({ minLength: 1, maxLength: 20 }),
    state: Type.Optional(Line),
    country: Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' }),
  },
  { additionalProperties: false },
);
const BirthDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' });
const Person = {
  first_name: Line,
  last_name: Line,
  date_of_birth: BirthDate,
};
export const MerchantProfileBody = Type.Object(
  {
    business_type: Type.Union([Type.Literal('individual'), Type.Literal('company')]),
    legal_name: Line,
    email: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
    phone: Type.Optional(Type.String({ pattern: '^\\+[1-9]\\d{6,14}$', description: 'E.164' })),
    address: Address,
    representative: Type.Object(
      {
        ...Person,
        email: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
        address: Type.Optional(Address),
      },
      { additionalProperties: false },
    ),
    owners: Type.Optional(
      Type.Array(
        Type.Object(
          { ...Person, ownership_percent: Type.Number({ minimum: 0, maximum: 100 }) },
          { additionalProperties: false },
        ),
        { maxItems: 10 },
      ),
    ),
  },
  { additionalProperties: false },
);
export type MerchantProfileBody = Static<typeof MerchantProfileBody>;
export const MerchantProfileResponse = Type.Object({
  org_id: Type.Integer(),
  profile: Nullable(
    Type.Object({ ...MerchantProfileBody.properties, updated_by: Type.Integer(), updated_at: IsoTime }),
  ),
});
