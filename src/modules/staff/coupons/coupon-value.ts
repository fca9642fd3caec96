/**
 * A coupon's value as people write it, parsed as text (never through a float): a percent with up
 * to 2 decimals in hundredths of a percent ("12.5" → 1250), an amount with up to 2 decimals in
 * minor units ("12.50" → 1250). A JSON number is read through its shortest text (12.5 → "12.5"),
 * so 0.1 + 0.2 is refused rather than rounded.
 */
const TWO_DECIMALS = /^(\d{1,9})(?:\.(\d{1,2}))?$/;

function hundredthsOf(value: string | number): number | null {
  const text = (typeof value === 'number' ? String(value) : value).trim();
  const m = TWO_DECIMALS.exec(text);
  if (m === null) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** A percent in (0, 100] as hundredths of a percent, else null. */
export function percentOf(value: string | number): number | null {
  const h = hundredthsOf(value);
  return h === null || h <= 0 || h > 10_000 ? null : h;
}

/** A positive amount as minor units, else null. */
export function amountOf(value: string | number): number | null {
  const h = hundredthsOf(value);
  return h === null || h <= 0 ? null : h;
}

/** Hundredths as a decimal string with two decimals: 1250 → "12.50". */
export function decimalOf(hundredths: number): string {
  const sign = hundredths < 0 ? '-' : '';
  const abs = Math.abs(hundredths);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A catalogue price ("4.00", "4.0000") in minor units, a third decimal rounding half up; null otherwise. */
export function priceMinorOf(decimal: string): number | null {
  const m = /^(-?)(\d{1,12})(?:\.(\d+))?$/.exec(decimal.trim());
  if (m === null) return null;
  const fraction = (m[3] ?? '').padEnd(3, '0');
  const cents = Number(m[2]) * 100 + Number(fraction.slice(0, 2)) + (Number(fraction[2]) >= 5 ? 1 : 0);
  return m[1] === '-' ? -cents : cents;
}

/** What a coupon takes off `subtotal` (minor units): a percent rounds half up; never more than the subtotal. */
export function discountOf(kind: string, amount: number, subtotal: number): number {
  if (subtotal <= 0) return 0;
  const off = kind === 'percent' ? Math.floor((subtotal * amount + 5_000) / 10_000) : amount;
  return Math.min(off, subtotal);
}
