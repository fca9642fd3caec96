/**
 * The shop's double-entry book (docs/commerce.md, "Balance, ledger, disputes and payouts"): every
 * movement of money is a transaction of entries over these accounts that sums to zero in its
 * currency. The shop's balance is read from them, never stored apart:
 * - `customer`: the world outside (shoppers' cards and banks): what came in is negative here;
 * - `pending`: captured, not yet paid out-able; each entry says when it becomes available;
 * - `available`: what a payout may take;
 * - `held`: disputed amounts the bank holds until the dispute closes;
 * - `fees`: the platform's fee;
 * - `payouts`: what left for the merchant's bank account.
 */
export const ACCOUNTS = ['customer', 'pending', 'available', 'held', 'fees', 'payouts'] as const;
export type LedgerAccount = (typeof ACCOUNTS)[number];

export type LedgerType =
  'capture' | 'fee' | 'refund' | 'fee_refund' | 'dispute_hold' | 'dispute_won' | 'dispute_lost' | 'payout';

/**
 * Days after a capture its money becomes available, as Stripe's standard payout schedule holds
 * card payments (https://docs.stripe.com/payouts#payout-schedule), counted on the module clock.
 */
export const AVAILABLE_AFTER_DAYS = 7;
const DAY_MS = 86_400_000;

/** When money captured at `at` counts as available. */
export function availableOn(at: Date): Date {
  return new Date(at.getTime() + AVAILABLE_AFTER_DAYS * DAY_MS);
}

export interface LedgerEntry {
  readonly account: LedgerAccount;
  readonly amountMinor: number;
  /** Pending entries only: when they count as available. */
  readonly availableOn?: Date;
}

/** `amount` moved from one account to another: the two entries of a simple transaction. */
export function move(from: LedgerAccount, to: LedgerAccount, amountMinor: number, on?: Date): LedgerEntry[] {
  const date = on === undefined ? {} : { availableOn: on };
  return [
    { account: from, amountMinor: -amountMinor, ...(from === 'pending' ? date : {}) },
    { account: to, amountMinor, ...(to === 'pending' ? date : {}) },
  ];
}

/** A transaction whose entries do not sum to zero is a bug: it is never written. */
export function assertBalanced(entries: readonly LedgerEntry[]): void {
  const sum = entries.reduce((a, e) => a + e.amountMinor, 0);
  if (sum !== 0 || entries.some((e) => !Number.isSafeInteger(e.amountMinor)))
    throw new Error(`ledger transaction does not balance (sum ${sum})`);
}

/**
 * The platform's fee on `amountMinor`: the organization's `platform_fee_percent` (decimal text,
 * "10.00"), rounded half up to the minor unit, computed on integers (hundredths of a percent).
 */
export function feeOf(amountMinor: number, percent: string): number {
  const m = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(percent.trim());
  if (m === null) return 0;
  const basisPoints = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return Math.floor((amountMinor * basisPoints + 5_000) / 10_000);
}
