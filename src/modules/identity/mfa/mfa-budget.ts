import { defineBudget } from '../../../kernel/limits/budget.ts';

/**
 * `POST /auth/mfa/verify`, `/enable`, `/disable`, `/recovery-codes` together: 10 in 5 minutes per
 * account (on /verify, the account of the MFA token: identity-module.ts sets that key).
 */
export const mfaVerifyBudget = defineBudget({
  action: 'user.mfa_verify',
  count: 10,
  windowS: 5 * 60,
  scope: 'account',
});
