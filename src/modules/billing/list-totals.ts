import { invalidFilter } from './billing-errors.ts';
import type { InvoiceStatus, TransactionType } from './billing-tables.ts';

/*
 * The totals of the billing lists (`with_total=true`): `counts` per status or type as if the
 * list's filter were unset, with `all`; invoices add `open` (unpaid and overdue), an account's
 * transactions add `credit`; `total` is what the filter matches. Filters are checked here too:
 * an unlisted word is 422 with the words allowed.
 */

export const STATUS_FILTERS = [
  'open',
  'draft',
  'unpaid',
  'paid',
  'cancelled',
  'refunded',
  'overdue',
] as const;
const STATUSES: readonly InvoiceStatus[] = ['draft', 'unpaid', 'paid', 'cancelled', 'refunded', 'overdue'];

export interface Totals {
  readonly total: number;
  readonly counts: Record<string, number>;
}

/** The statuses a `status_filter` word means; null without a filter. */
export function statusesOf(filter: string | undefined): InvoiceStatus[] | null {
  if (filter === undefined) return null;
  if (!(STATUS_FILTERS as readonly string[]).includes(filter))
    throw invalidFilter('status_filter', STATUS_FILTERS);
  return filter === 'open' ? ['unpaid', 'overdue'] : [filter as InvoiceStatus];
}

/**
 * The types a `type_filter` word means among `allowed` (the word `credit`, when allowed, means both
 * credit movements); null without a filter.
 */
export function typesOf(filter: string | undefined, allowed: readonly string[]): TransactionType[] | null {
  if (filter === undefined) return null;
  if (!allowed.includes(filter)) throw invalidFilter('type_filter', allowed);
  return filter === 'credit' ? ['credit_add', 'credit_deduct'] : [filter as TransactionType];
}

/** Counts per status (`per`: the database's count of each), `all`, `open`; the filter's total. */
export function invoiceTotals(
  per: ReadonlyMap<string, number>,
  statuses: readonly InvoiceStatus[] | null,
): Totals {
  return totalsOf(per, STATUSES, statuses, {
    open: (per.get('unpaid') ?? 0) + (per.get('overdue') ?? 0),
  });
}

/** Counts per type of `types`, `all`, and `credit` (both credit movements) when asked; the filter's total. */
export function transactionTotals(
  per: ReadonlyMap<string, number>,
  types: readonly TransactionType[],
  filtered: readonly TransactionType[] | null,
  withCredit: boolean,
): Totals {
  const credit = (per.get('credit_add') ?? 0) + (per.get('credit_deduct') ?? 0);
  return totalsOf(per, types, filtered, withCredit ? { credit } : {});
}

function totalsOf(
  per: ReadonlyMap<string, number>,
  words: readonly string[],
  filtered: readonly string[] | null,
  extra: Record<string, number>,
): Totals {
  const counts: Record<string, number> = { all: 0 };
  for (const w of words) {
    counts[w] = per.get(w) ?? 0;
    counts.all! += counts[w];
  }
  const total = filtered === null ? counts.all! : filtered.reduce((n, w) => n + (counts[w] ?? 0), 0);
  return { total, counts: { ...counts, ...extra } };
}
