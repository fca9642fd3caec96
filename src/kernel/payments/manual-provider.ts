import { randomBytes } from 'node:crypto';
import type { ChargeRequest, ChargeResult, PaymentProvider } from './payment-provider.ts';

/**
 * Payment methods that decline, named as Stripe's test tokens are
 * (https://docs.stripe.com/testing#declined-payments), so a test or a demo deployment can say the same
 * thing to either adapter.
 */
const DECLINES: Readonly<Record<string, { code: string; reason: string }>> = {
  pm_card_chargeDeclined: { code: 'card_declined', reason: 'Your card was declined.' },
  pm_card_chargeDeclinedInsufficientFunds: {
    code: 'insufficient_funds',
    reason: 'Your card has insufficient funds.',
  },
};

/** 12 random bytes as lower-case hex: the default source of references. */
const defaultRandom = (): string => randomBytes(12).toString('hex');

/**
 * The embedded default adapter: every charge succeeds (reference `manual_<random>`) unless its
 * payment method is a decline token; the money is collected outside the platform and an operator
 * reconciles the ledger's `manual` rows. Idempotency keys are remembered in this process's memory
 * only: a retry after a restart is a new charge, which costs nothing here since no money moves.
 */
export class ManualPaymentProvider implements PaymentProvider {
  readonly gateway = 'manual' as const;
  private readonly charges = new Map<string, ChargeResult>();
  private readonly refunds = new Map<string, { readonly reference: string }>();

  constructor(private readonly random: () => string = defaultRandom) {}

  charge(request: ChargeRequest): Promise<ChargeResult> {
    const seen = this.charges.get(request.idempotencyKey);
    if (seen !== undefined) return Promise.resolve(seen);
    const decline = request.paymentMethod === null ? undefined : DECLINES[request.paymentMethod];
    const result: ChargeResult =
      decline !== undefined
        ? { status: 'declined', gateway: 'manual', code: decline.code, reason: decline.reason }
        : { status: 'succeeded', gateway: 'manual', reference: `manual_${this.random()}` };
    this.charges.set(request.idempotencyKey, result);
    return Promise.resolve(result);
  }

  refund(input: {
    readonly reference: string;
    readonly amountMinor: number;
    readonly idempotencyKey: string;
  }): Promise<{ readonly reference: string }> {
    const seen = this.refunds.get(input.idempotencyKey);
    if (seen !== undefined) return Promise.resolve(seen);
    const done = { reference: `manual_re_${this.random()}` };
    this.refunds.set(input.idempotencyKey, done);
    return Promise.resolve(done);
  }
}
