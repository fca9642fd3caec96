import { defineError } from '../../../kernel/errors/error-registry.ts';

/**
 * The answers of payment sessions and cart completion (docs/commerce.md, "Checkout"). Refusals
 * about the payment answer an object in the Store API's shape (`error`, `message`, and what the
 * shopper's page needs next).
 */
export const paymentDeclined = defineError(
  'commerce.payment_declined',
  402,
  (reason: string, code: string) => ({ error: 'payment_declined', message: reason, decline_code: code }),
);
export const paymentRequiresAction = defineError(
  'commerce.payment_requires_action',
  409,
  (clientSecret: string | null) => ({
    error: 'payment_requires_action',
    message: 'The payment needs the shopper to authenticate it (3-D Secure) before the order is placed',
    client_secret: clientSecret,
  }),
);
export const paymentNotAuthorized = defineError('commerce.payment_not_authorized', 409, (status: string) => ({
  error: 'payment_not_authorized',
  message: `The cart's payment is not authorized (${status}): start a payment session first`,
  payment_status: status,
}));
export const cartBeingCompleted = defineError(
  'commerce.cart_being_completed',
  409,
  'Cart is already being completed',
);
export const idempotencyKeyReused = defineError(
  'commerce.idempotency_key_reused',
  409,
  'This Idempotency-Key was used with another cart or another request body',
);
export const paymentNotRequired = defineError(
  'commerce.payment_not_required',
  409,
  'This cart needs no payment: its total is 0',
);
