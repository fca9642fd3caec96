/**
 * SOA serials in RFC 1982 arithmetic (32-bit, wrapping). Serials start date-based
 * (YYYYMMDDnn, the common convention) and every change moves them forward by at least one.
 */
const MOD = 2 ** 32;
const HALF = 2 ** 31;

/** RFC 1982 §3.2: a is greater than b. */
export function serialGreater(a: number, b: number): boolean {
  return a !== b && ((a > b && a - b < HALF) || (a < b && b - a > HALF));
}

export function dateSerial(nowMs: number): number {
  const d = new Date(nowMs);
  return (d.getUTCFullYear() * 10_000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate()) * 100;
}

/** The next serial: today's date-based value if that is ahead, else one more (wrapping). */
export function nextSerial(current: number, nowMs: number): number {
  const dated = dateSerial(nowMs);
  return serialGreater(dated, current) ? dated : (current + 1) % MOD;
}
