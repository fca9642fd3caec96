import { describe } from 'vitest';
import { stripeProviderCases } from './stripe-provider-cases.ts';

/**
 * The cases of stripe-provider.test.ts against Stripe's own test mode, so the local server those
 * tests use is checked against the real API. Set STRIPE_CONTRACT_SECRET_KEY to an `sk_test_` key
 * (never a live key: these charges would be real) to run it.
 */
const key = process.env.STRIPE_CONTRACT_SECRET_KEY ?? '';
const live = key.startsWith('sk_live_') || key.startsWith('rk_live_');

describe.skipIf(key === '' || live)(
  key === '' || live
    ? 'stripe adapter against Stripe test mode (skipped: needs STRIPE_CONTRACT_SECRET_KEY, an sk_test_ key)'
    : 'stripe adapter against Stripe test mode',
  () => {
    stripeProviderCases(() => ({ secretKey: key, apiBaseUrl: null }));
  },
);
