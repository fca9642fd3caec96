import { defineError } from '../../../kernel/errors/error-registry.ts';

/** The answers of returns and their reasons (docs/commerce.md, "Returns and refunds"). */
export const returnNotFound = defineError('commerce.return_not_found', 404, 'Return not found');
export const returnReasonNotFound = defineError(
  'commerce.return_reason_not_found',
  404,
  'Return reason not found',
);
export const returnTransition = defineError(
  'commerce.return_transition',
  409,
  (state: string, next: string) => `Return is ${state}: it cannot be ${next}`,
);
export const returnReasonTaken = defineError(
  'commerce.return_reason_taken',
  409,
  (value: string) => `A return reason with value "${value}" already exists`,
);
