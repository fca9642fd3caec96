import { defineError } from '../../../kernel/errors/error-registry.ts';

export const giftCardNotFound = defineError('commerce.gift_card_not_found', 404, 'Gift card not found');

/**
 * A code the cart cannot use, whatever the reason (unknown, disabled, expired, empty, another
 * currency): one answer, so trying codes tells nothing about which exist.
 */
export const giftCardUnusable = defineError(
  'commerce.gift_card_unusable',
  404,
  'No gift card with this code can be used on this cart',
);

export const giftCardNotApplied = defineError(
  'commerce.gift_card_not_applied',
  404,
  'This gift card is not applied to the cart',
);
