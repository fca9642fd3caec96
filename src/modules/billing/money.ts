/**
 * Money as the platform moves it: integer minor units inside (two decimals, the currencies the
 * catalogue sells in), decimal strings in (the catalogue's `numeric` prices, top-up amounts), numbers
 * out (as the catalogue answers `price`). Never through a float on the way in.
 */
const DECIMAL = /^(\d{1,12})(?:\.(\d+))?$/;

/** "4.00" / "4.0000" / "4" → 400; a third decimal rounds half up. Null for anything else. */
export function minorOf(decimal: string): number | null {
  const m = DECIMAL.exec(decimal.trim());
  if (m === null) return null;
  const fraction = (m[2] ?? '').padEnd(3, '0');
  const cents = Number(m[1]) * 100 + Number(fraction.slice(0, 2));
  return Number(fraction[2]) >= 5 ? cents + 1 : cents;
}

/**
 * An amount a person gives (`"1.50"`, `12`, a JSON number): at most 2 decimals and 9 integer
 * digits, in minor units; null for anything else (a third decimal is refused, never rounded).
 */
export function amountOf(value: string | number): number | null {
  const text = (typeof value === 'number' ? String(value) : value).trim();
  return /^\d{1,9}(\.\d{1,2})?$/.test(text) ? minorOf(text) : null;
}

/** 400 → 4, 1999 → 19.99 (exact for two decimals). */
export function majorOf(minor: number | string): number {
  return Number(minor) / 100;
}

/**
 * `percent` (a decimal string of at most 2 places, "12.50") of `minor`, rounded half up: in
 * integers (hundredths of a percent), never through a float. Null when `percent` is no decimal.
 */
export function percentOf(minor: number, percent: string): number | null {
  const hundredths = minorOf(percent);
  return hundredths === null ? null : Math.floor((minor * hundredths + 5000) / 10000);
}
