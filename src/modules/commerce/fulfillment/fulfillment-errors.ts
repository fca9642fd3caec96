import { defineError } from '../../../kernel/errors/error-registry.ts';

/** The answers of fulfilments and of an order's cancel (docs/commerce.md, "Fulfilment and cancel"). */
export const fulfillmentNotFound = defineError(
  'commerce.fulfillment_not_found',
  404,
  'Fulfillment not found',
);
export const orderCanceled = defineError('commerce.order_canceled', 409, 'Order is canceled');
export const fulfillmentTransition = defineError(
  'commerce.fulfillment_transition',
  409,
  (state: string, next: string) => `Fulfillment is ${state}: it cannot be marked ${next}`,
);
export const orderHasFulfillments = defineError(
  'commerce.order_has_fulfillments',
  409,
  'Order has fulfillments that are not canceled: cancel them first',
);
