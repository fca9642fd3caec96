import { defineError } from '../../../kernel/errors/error-registry.ts';

/**
 * The Store API's cart answers. A cart of another organization, sales channel or mode than the
 * calling key's is not found. The 409s about a variant answer an object naming it, in the shape
 * the Store API's other refusals take (`error`, `message`): `{"detail": {"error":
 * "insufficient_inventory", "message": "...", "variant_id": 12}}`.
 */
export const cartNotFound = defineError('commerce.cart_not_found', 404, 'Cart not found');
export const lineItemNotFound = defineError('commerce.line_item_not_found', 404, 'Line item not found');
export const cartCompleted = defineError('commerce.cart_completed', 409, (cartId: number) => ({
  error: 'cart_completed',
  message: `Cart ${cartId} is completed and can no longer change`,
  cart_id: cartId,
}));
export const insufficientInventory = defineError(
  'commerce.insufficient_inventory',
  409,
  (variantId: number, available: number) => ({
    error: 'insufficient_inventory',
    message: `Variant ${variantId} does not have the required inventory (${available} available)`,
    variant_id: variantId,
    available_quantity: available,
  }),
);
export const variantNotPriced = defineError(
  'commerce.variant_not_priced',
  409,
  (variantId: number, currency: string) => ({
    error: 'variant_not_priced',
    message: `Variant ${variantId} has no price in ${currency}`,
    variant_id: variantId,
    currency_code: currency,
  }),
);
export const variantUnavailable = defineError(
  'commerce.variant_unavailable',
  409,
  (variantId: number, why: string) => ({
    error: 'variant_unavailable',
    message: `Variant ${variantId} cannot be sold here: ${why}`,
    variant_id: variantId,
  }),
);
export const storeWithoutRegion = defineError(
  'commerce.store_without_region',
  409,
  'The store has no region to sell in',
);
