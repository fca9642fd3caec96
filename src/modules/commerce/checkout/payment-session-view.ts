import type { PaymentRecord } from '../../../kernel/payments/payment-provider.ts';
import type { CommercePaymentSessionRow } from '../commerce-tables.ts';
import { majorUnits } from '../money/money-amounts.ts';

/** A payment session as the shopper's page sees it: what to do next, and the secret to do it with. */
export interface PaymentSessionView {
  id: number;
  provider: string;
  /** The provider's state: `requires_payment_method`, `requires_action`, `authorized`, `declined`, ... */
  status: string;
  amount: number;
  currency_code: string;
  /** For Stripe.js on the shopper's page (confirm, 3-D Secure); null for providers without one. */
  client_secret: string | null;
  decline_code: string | null;
  decline_reason: string | null;
}

export function paymentSessionView(
  row: CommercePaymentSessionRow,
  record: PaymentRecord,
): PaymentSessionView {
  const currency = row.currency_code.toUpperCase();
  return {
    id: Number(row.id),
    provider: row.provider,
    status: record.status,
    amount: majorUnits(Number(row.amount_minor), currency),
    currency_code: currency,
    client_secret: record.clientSecret,
    decline_code: record.declineCode ?? null,
    decline_reason: record.declineReason ?? null,
  };
}
