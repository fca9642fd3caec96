import { defineError } from '../../../kernel/errors/error-registry.ts';

/** The money side's answers (docs/commerce.md, "Balance, ledger, disputes and payouts"). */
export const disputeNotFound = defineError('commerce.dispute_not_found', 404, 'Dispute not found');
export const disputeClosed = defineError('commerce.dispute_closed', 409, 'Dispute is closed');
export const disputeAlreadySubmitted = defineError(
  'commerce.dispute_already_submitted',
  409,
  'The evidence of this dispute was already sent to the bank',
);
export const disputeProviderFailed = defineError(
  'commerce.dispute_provider_failed',
  502,
  (provider: string) => `The payment provider ${provider} refused or failed: nothing was changed`,
);
export const webhookSignatureInvalid = defineError(
  'commerce.webhook_signature_invalid',
  400,
  'Invalid Stripe-Signature: not signed with the endpoint secret, or older than 300 seconds',
);
export const webhookNotConfigured = defineError(
  'commerce.webhook_not_configured',
  404,
  'Stripe webhooks are not configured (STRIPE_WEBHOOK_SECRET)',
);
