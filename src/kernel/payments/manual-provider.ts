import { randomBytes } from 'node:crypto';
import {
  PaymentProviderError,
  type AuthorizeRequest,
  type ChargeRequest,
  type ChargeResult,
  type PaymentProvider,
  type PaymentRecord,
} from './payment-provider.ts';

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
 *
 * Authorizations ("pay later", bank transfer) are `authorized` at once, with or without a method,
 * unless the method is a decline token. Their reference carries the amount and currency
 * (`manual_pi_<random>_<amount>_<currency>`), so a process that restarted still answers for one it
 * no longer holds in memory: taken as `authorized`, the caller's own order keeping the truth.
 */
export class ManualPaymentProvider implements PaymentProvider {
  readonly gateway = 'manual' as const;
  private readonly charges = new Map<string, ChargeResult>();
  private readonly refunds = new Map<string, { readonly reference: string }>();
  /** Authorizations by reference, and the answers already given by idempotency key. */
  private readonly payments = new Map<string, PaymentRecord>();
  private readonly answers = new Map<string, PaymentRecord>();

  constructor(private readonly random: () => string = defaultRandom) {}

  charge(request: ChargeRequest): Promise<ChargeResult> {
    const seen = this.charges.get(request.idempotencyKey);
    if (seen !== undefined) return Promise.resolve(seen);
    const decline = declineOf(request.paymentMethod);
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

  authorize(request: AuthorizeRequest): Promise<PaymentRecord> {
    return this.once(`authorize:${request.idempotencyKey}`, () => {
      const reference = `manual_pi_${this.random()}_${request.amountMinor}_${request.currency}`;
      const created: PaymentRecord = {
        reference,
        status: 'authorized',
        clientSecret: null,
        amountMinor: request.amountMinor,
        currency: request.currency,
      };
      return withMethod(created, request.paymentMethod);
    });
  }

  confirm(reference: string, paymentMethod: string, idempotencyKey: string): Promise<PaymentRecord> {
    return this.once(`confirm:${idempotencyKey}`, () => {
      const found = this.find(reference);
      if (found.status !== 'declined' && found.status !== 'authorized') return unexpected('confirm', found);
      return withMethod(found, paymentMethod);
    });
  }

  retrieve(reference: string): Promise<PaymentRecord> {
    // Through then(): an unknown reference is a rejected promise, never a throw.
    return Promise.resolve().then(() => this.find(reference));
  }

  capture(reference: string, idempotencyKey: string): Promise<PaymentRecord> {
    return this.once(`capture:${idempotencyKey}`, () => {
      const found = this.find(reference);
      if (found.status === 'captured') return found;
      if (found.status !== 'authorized') return unexpected('capture', found);
      return { ...found, status: 'captured' };
    });
  }

  cancel(reference: string): Promise<PaymentRecord> {
    return Promise.resolve().then(() => {
      const found = this.find(reference);
      if (found.status === 'canceled') return found;
      if (found.status === 'captured') return unexpected('cancel', found);
      const { declineCode: _code, declineReason: _reason, ...rest } = found;
      return this.keep({ ...rest, status: 'canceled' });
    });
  }

  /** The answer already given for a key, or `make`'s (a thrown one is not kept, as at Stripe). */
  private once(key: string, make: () => PaymentRecord): Promise<PaymentRecord> {
    const seen = this.answers.get(key);
    if (seen !== undefined) return Promise.resolve(seen);
    try {
      const record = this.keep(make());
      this.answers.set(key, record);
      return Promise.resolve(record);
    } catch (err) {
      return Promise.reject(err as Error);
    }
  }

  private keep(record: PaymentRecord): PaymentRecord {
    this.payments.set(record.reference, record);
    return record;
  }

  private find(reference: string): PaymentRecord {
    const known = this.payments.get(reference);
    if (known !== undefined) return known;
    const derived = /^manual_pi_[A-Za-z0-9]+_([1-9]\d*)_([a-z]{3})$/.exec(reference);
    if (derived === null) throw new PaymentProviderError('manual', `No such payment: '${reference}'`);
    return this.keep({
      reference,
      status: 'authorized',
      clientSecret: null,
      amountMinor: Number(derived[1]),
      currency: derived[2]!,
    });
  }
}

function declineOf(paymentMethod: string | null): { code: string; reason: string } | undefined {
  return paymentMethod === null ? undefined : DECLINES[paymentMethod];
}

/** The record once `paymentMethod` was tried: declined by a decline token, otherwise authorized. */
function withMethod(record: PaymentRecord, paymentMethod: string | null): PaymentRecord {
  const { declineCode: _code, declineReason: _reason, ...rest } = record;
  const decline = declineOf(paymentMethod);
  return decline === undefined
    ? { ...rest, status: 'authorized' }
    : { ...rest, status: 'declined', declineCode: decline.code, declineReason: decline.reason };
}

function unexpected(action: string, record: PaymentRecord): never {
  throw new PaymentProviderError(
    'manual',
    `Cannot ${action} payment '${record.reference}': its status is ${record.status}`,
  );
}
