import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type { PaymentRecord } from '../../../kernel/payments/payment-provider.ts';
import type { CommercePaymentSessionRow } from '../commerce-tables.ts';
import { majorUnits } from '../money/money-amounts.ts';

/**
 * A payment session as the shopper's page sees it: where the payment stands at its provider
 * (`requires_payment_method`, `requires_action`, `authorized`, `declined`, ...), the amount in major
 * units, and the client secret for Stripe.js (confirm, 3-D Secure; null for providers without one).
 */
export type PaymentSessionView = JsonView<Pick<CommercePaymentSessionRow, 'id' | 'provider' | 'status'>> & {
  amount: number;
  currency_code: string;
  client_secret: string | null;
  decline_code: string | null;
  decline_reason: string | null;
};

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
