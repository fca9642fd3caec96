import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import { majorUnits } from '../money/money-amounts.ts';
import type { AccountSum, LedgerEntryRow, LedgerTransaction } from './ledger-repository.ts';

export interface Amount {
  currency: string;
  amount: number;
}

/** `GET .../commerce/balance`: derived from the ledger's entries at the time asked. */
export interface Balance {
  available: Amount[];
  pending: Amount[];
  held: Amount[];
}

/**
 * The balance from the sums of the ledger's accounts: `available` is the available account plus
 * pending entries whose date has passed; `pending` the pending entries still to mature; `held` the
 * disputed amounts. One row per currency the shop has entries in, in all three lists.
 */
export function balanceView(sums: readonly AccountSum[]): Balance {
  const currencies = [...new Set(sums.map((s) => s.currency))].sort();
  const total = (currency: string, keep: (s: AccountSum) => boolean): Amount => ({
    currency,
    amount: majorUnits(
      sums.filter((s) => s.currency === currency && keep(s)).reduce((a, s) => a + s.amountMinor, 0),
      currency,
    ),
  });
  return {
    available: currencies.map((c) =>
      total(c, (s) => s.account === 'available' || (s.account === 'pending' && s.matured)),
    ),
    pending: currencies.map((c) => total(c, (s) => s.account === 'pending' && !s.matured)),
    held: currencies.map((c) => total(c, (s) => s.account === 'held')),
  };
}

/** Available minor units of one currency (what a payout may take). */
export function availableMinor(sums: readonly AccountSum[], currency: string): number {
  return sums
    .filter(
      (s) => s.currency === currency && (s.account === 'available' || (s.account === 'pending' && s.matured)),
    )
    .reduce((a, s) => a + s.amountMinor, 0);
}

/** An entry as the ledger shows it; `amount` in major units. */
export type LedgerEntryView = JsonView<Pick<LedgerEntryRow, 'account' | 'available_on'>> & { amount: number };

/** A transaction with its entries. */
export type LedgerTransactionView = JsonView<Omit<LedgerTransaction, 'org_id'>> & {
  entries: LedgerEntryView[];
};

const idOrNull = (v: number | string | null): number | null => (v === null ? null : Number(v));

export function ledgerTransactionView(
  t: LedgerTransaction,
  entries: readonly LedgerEntryRow[],
): LedgerTransactionView {
  return {
    id: t.id,
    type: t.type,
    currency_code: t.currency_code,
    order_id: idOrNull(t.order_id),
    payment_id: idOrNull(t.payment_id),
    refund_id: idOrNull(t.refund_id),
    dispute_id: idOrNull(t.dispute_id),
    payout_id: idOrNull(t.payout_id),
    created_at: t.created_at.toISOString(),
    entries: entries.map((e) => ({
      account: e.account,
      amount: majorUnits(e.amount_minor, t.currency_code),
      available_on: e.available_on === null ? null : e.available_on.toISOString(),
    })),
  };
}
