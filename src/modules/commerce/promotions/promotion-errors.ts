import { invalidField, type AppError } from '../../../kernel/errors/app-error.ts';
import { defineError } from '../../../kernel/errors/error-registry.ts';

/** The promotions' answers (docs/commerce.md, "Promotions"). */
export const promotionNotFound = defineError('commerce.promotion_not_found', 404, 'Promotion not found');
export const promotionCodeTaken = defineError(
  'commerce.promotion_code_taken',
  409,
  (code: string) => `A promotion with code "${code}" already exists (codes match in any case)`,
);

/**
 * Completion refused: the promotion's last use went to another order, or the shopper's e-mail has
 * used it as often as allowed. The cart stays open and its payment is not captured; removing the
 * code (or adding another) gives a new total to pay.
 */
export const promotionUnavailable = defineError(
  'commerce.promotion_unavailable',
  409,
  (code: string, promotionId: number, why: 'used_up' | 'customer_limit') => ({
    error: 'promotion_unavailable',
    message:
      why === 'used_up'
        ? `Promotion ${code} has been used up`
        : `Promotion ${code} has already been used by this e-mail address as often as allowed`,
    reason: why,
    promotion_id: promotionId,
    promotion_code: code,
  }),
);

/** Why a code cannot go on a cart: a 422 naming `code`, its `type` saying which. */
export type CodeRefusal =
  'unknown' | 'not_started' | 'expired' | 'used_up' | 'customer_limit' | 'min_subtotal' | 'currency';

const MESSAGES: Record<CodeRefusal, string> = {
  unknown: 'Unknown promotion code',
  not_started: 'This promotion has not started yet',
  expired: 'This promotion has expired',
  used_up: 'This promotion has been used up',
  customer_limit: 'This promotion has already been used by this e-mail address as often as allowed',
  min_subtotal: 'The cart’s subtotal is below this promotion’s minimum',
  currency: 'This promotion has no amount in the cart’s currency',
};

export function codeRefused(why: CodeRefusal, code: string, detail = ''): AppError {
  return invalidField(['body', 'code'], MESSAGES[why] + detail, code, `promotion_${why}`);
}
