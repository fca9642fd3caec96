/** Small statistics shared by the bench suites. */

/** Median; the mean of the two middle values for an even count (NaN when empty). */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** (max − min) ÷ median, percent: how far apart the rounds of one measurement were. */
export function spreadPct(xs: readonly number[]): number {
  return ((Math.max(...xs) - Math.min(...xs)) / median(xs)) * 100;
}
