import { majorUnits } from '../money/money-amounts.ts';
import type { TaxedOrder, TaxedRefund } from './tax-report-repository.ts';

/** One country and currency of a month's tax report; amounts in major units. */
export interface TaxReportRow {
  country_code: string | null;
  currency_code: string;
  orders: number;
  /** Sales without their tax (what tax was charged on). */
  taxable_sales: number;
  tax_collected: number;
  refunded_sales: number;
  refunded_tax: number;
  net_taxable_sales: number;
  net_tax: number;
}

interface Totals {
  orders: number;
  sales: number;
  tax: number;
  refundedSales: number;
  refundedTax: number;
}

/**
 * The tax a refund gives back: the order's share of tax in what is refunded, rounded half up
 * (`refunded × tax / total`); a full refund gives back exactly the order's tax.
 */
export function taxOfRefund(r: TaxedRefund): number {
  if (r.totalMinor <= 0) return 0;
  if (r.refundedMinor >= r.totalMinor) return r.taxMinor;
  return Math.floor((r.refundedMinor * r.taxMinor * 2 + r.totalMinor) / (2 * r.totalMinor));
}

/**
 * A month's report per country (the shipping address's) and currency: orders placed in the month
 * with their sales net of tax and the tax in them, minus refunds made in the month.
 */
export function taxReportRows(
  orders: readonly TaxedOrder[],
  refunds: readonly TaxedRefund[],
): TaxReportRow[] {
  const groups = new Map<string, Totals & { country: string | null; currency: string }>();
  const group = (o: TaxedOrder) => {
    const key = `${o.country ?? ''}|${o.currency}`;
    let g = groups.get(key);
    if (g === undefined) {
      g = {
        country: o.country,
        currency: o.currency,
        orders: 0,
        sales: 0,
        tax: 0,
        refundedSales: 0,
        refundedTax: 0,
      };
      groups.set(key, g);
    }
    return g;
  };
  for (const o of orders) {
    const g = group(o);
    g.orders += 1;
    g.sales += o.totalMinor - o.taxMinor;
    g.tax += o.taxMinor;
  }
  for (const r of refunds) {
    const g = group(r);
    const tax = taxOfRefund(r);
    g.refundedSales += r.refundedMinor - tax;
    g.refundedTax += tax;
  }
  return [...groups.values()]
    .sort((a, b) => (a.country ?? '').localeCompare(b.country ?? '') || a.currency.localeCompare(b.currency))
    .map((g) => {
      const m = (v: number) => majorUnits(v, g.currency);
      return {
        country_code: g.country,
        currency_code: g.currency,
        orders: g.orders,
        taxable_sales: m(g.sales),
        tax_collected: m(g.tax),
        refunded_sales: m(g.refundedSales),
        refunded_tax: m(g.refundedTax),
        net_taxable_sales: m(g.sales - g.refundedSales),
        net_tax: m(g.tax - g.refundedTax),
      };
    });
}
