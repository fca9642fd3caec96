import type { Clock } from '../../../kernel/clock.ts';
import type { BillingInsights } from '../../billing/index.ts';
import type { CommerceInsights } from '../../commerce/index.ts';
import type { CustomerInsights } from '../../identity/index.ts';
import type { ServiceInsights } from '../../services/index.ts';

/** What the insights read of other modules, each through its own interface. */
export interface InsightsSources {
  readonly billing: BillingInsights;
  readonly commerce: CommerceInsights;
  readonly services: ServiceInsights;
  readonly customers: CustomerInsights;
}

/** One UTC day of the insights. Money: decimal strings in major units, one per currency. */
export interface InsightsDay {
  date: string;
  revenue: Record<string, string>;
  orders: number;
  new_customers: number;
  active_services: number;
  support_opened: number;
  support_closed: number;
}

export interface Insights {
  days: number;
  /** The currencies of `revenue` in every row, by code. */
  currencies: string[];
  rows: InsightsDay[];
}

const DAY_MS = 86_400_000;

/**
 * The staff console's insights (docs/staff-console.md, "Insights"): a row per UTC day of the module
 * clock, oldest first, every day present. Each measure is one aggregate query grouped by day.
 */
export class InsightsService {
  constructor(
    private readonly clock: Clock,
    private readonly sources: InsightsSources,
  ) {}

  async daily(orgId: number, days: number): Promise<Insights> {
    const today = Math.floor(this.clock.now() / DAY_MS) * DAY_MS;
    const from = new Date(today - (days - 1) * DAY_MS);
    const before = new Date(today + DAY_MS);
    const { billing, commerce, services, customers } = this.sources;
    const [invoices, captures, shopOrders, serviceOrders, active, registered] = await Promise.all([
      billing.customerInvoiceRevenue(orgId, from, before),
      commerce.capturedLessRefunded(orgId, from, before),
      commerce.ordersByDay(orgId, from, before),
      services.ordersByDay(orgId, from, before),
      services.activeChanges(orgId, from, before),
      customers.registrationsByDay(orgId, from, before),
    ]);
    const money = new Map<string, Map<string, number>>();
    for (const r of [...invoices, ...captures]) {
      const byDay = money.get(r.currency) ?? new Map<string, number>();
      byDay.set(r.day, (byDay.get(r.day) ?? 0) + r.amountMinor);
      money.set(r.currency, byDay);
    }
    const currencies = [...money.keys()].sort();
    const count = (list: readonly { day: string; count: number }[]) =>
      new Map(list.map((r) => [r.day, r.count]));
    const orders = [count(shopOrders), count(serviceOrders)];
    const activated = count(active.activated);
    const terminated = count(active.terminated);
    const fresh = count(registered);
    const rows: InsightsDay[] = [];
    let running = active.activeAtStart;
    for (let at = from.getTime(); at < before.getTime(); at += DAY_MS) {
      const date = new Date(at).toISOString().slice(0, 10);
      running += (activated.get(date) ?? 0) - (terminated.get(date) ?? 0);
      rows.push({
        date,
        revenue: Object.fromEntries(currencies.map((c) => [c, decimalOf(money.get(c)?.get(date) ?? 0, c)])),
        orders: orders.reduce((n, m) => n + (m.get(date) ?? 0), 0),
        new_customers: fresh.get(date) ?? 0,
        active_services: running,
        // Support tickets do not exist yet: always 0.
        support_opened: 0,
        support_closed: 0,
      });
    }
    return { days, currencies, rows };
  }
}

/** Integer minor units → the decimal text in major units of `currency` (1234 EUR → "12.34"). */
export function decimalOf(minor: number, currency: string): string {
  const exponent = exponentOf(currency);
  const negative = minor < 0;
  const digits = String(Math.abs(minor)).padStart(exponent + 1, '0');
  const text = exponent === 0 ? digits : `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
  return negative ? `-${text}` : text;
}

/** The currency's decimals (ISO 4217, as the runtime's ICU knows them); 2 for an unknown code. */
function exponentOf(currency: string): number {
  try {
    return (
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ??
      2
    );
  } catch {
    return 2;
  }
}
