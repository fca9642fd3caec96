/**
 * The arithmetic of hourly plans billed in arrears: the hours a service was active in a month and
 * what they cost. Integers only: prices have up to 4 decimals, so they are counted in
 * ten-thousandths, and the line is rounded half up to cents once.
 */
const HOUR_MS = 3600_000;
const PRICE = /^(\d{1,12})(?:\.(\d{1,4}))?$/;

/** "0.0068" → 68, "4" → 40000; null for anything with more than 4 decimals or not a decimal. */
export function tenThousandthsOf(decimal: string): number | null {
  const m = PRICE.exec(decimal.trim());
  if (m === null) return null;
  return Number(m[1]) * 10_000 + Number((m[2] ?? '').padEnd(4, '0'));
}

/** Hours begun while active: ceil(|[start, end) ∩ [activatedAt, terminatedAt ?? ∞)| / 1 h). */
export function activeHours(start: Date, end: Date, activatedAt: Date, terminatedAt: Date | null): number {
  const from = Math.max(start.getTime(), activatedAt.getTime());
  const to = Math.min(end.getTime(), terminatedAt?.getTime() ?? Infinity);
  return to <= from ? 0 : Math.ceil((to - from) / HOUR_MS);
}

/** hours × price in cents, rounded half up once (null: not a price). */
export function arrearsMinor(hours: number, price: string): number | null {
  const unit = tenThousandthsOf(price);
  if (unit === null) return null;
  return Math.floor((hours * unit + 50) / 100);
}

/** The calendar month (UTC) before the one holding `day`: [its first instant, the next month's). */
export function monthBefore(day: Date): { start: Date; end: Date } {
  const end = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1));
  const start = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth() - 1, 1));
  return { start, end };
}
