import { BareBodyError } from '../../kernel/errors/app-error.ts';
import { defineError } from '../../kernel/errors/error-registry.ts';

/** Every error of the billing module, with its stable code. */
export const invoiceNotFound = defineError('billing.invoice_not_found', 404, 'Invoice not found');
export const invoiceNotPayable = defineError(
  'billing.invoice_not_payable',
  409,
  (status: string) => `Invoice is ${status}`,
);
export const insufficientCredit = defineError('billing.insufficient_credit', 402, 'Insufficient credit');
export const paymentDeclined = defineError('billing.payment_declined', 402, (reason: string) => reason);
export const currencyMismatch = defineError(
  'billing.currency_mismatch',
  409,
  (currency: string) => `Credit is held in ${currency}`,
);
export const paymentProviderUnavailable = defineError(
  'billing.provider_unavailable',
  503,
  'Payment provider unavailable, try again later',
  { 'Retry-After': '5' },
);

/** A list filter outside its words, as the services list's `resource_type` answers it. */
export const invalidFilter = (
  field: 'status_filter' | 'type_filter',
  allowed: readonly string[],
): BareBodyError =>
  new BareBodyError(422, { error: `invalid_${field}`, allowed: [...allowed] }, `billing.invalid_${field}`);

/** A refund of an invoice with nothing (more) paid to give back, or refunded meanwhile. */
export const invoiceNotRefundable = defineError(
  'billing.invoice_not_refundable',
  409,
  (why: string) => `Invoice cannot be refunded: ${why}`,
);
