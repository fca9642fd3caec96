import { invalidField } from '../../../kernel/errors/app-error.ts';
import { currencyExponent } from './currency-table.ts';

type Loc = readonly (string | number)[];

/** A currency code as given (any case) → its upper-case ISO 4217 code, or 422 naming `loc`. */
export function currencyCodeOf(given: string, loc: Loc): string {
  const code = given.trim().toUpperCase();
  if (currencyExponent(code) === null) throw invalidField(loc, 'Unknown currency (ISO 4217 code)', given);
  return code;
}

/**
 * An amount in major units as the API takes it (EUR 12.34, JPY 1200) → integer minor units
 * (1234, 1200). Decided on the number's decimal text, never by float multiplication: more
 * decimals than the currency has (EUR 12.345, JPY 12.5) is a 422 naming `loc`, never rounded.
 */
export function minorUnits(amount: number, currency: string, loc: Loc): number {
  const exponent = currencyExponent(currency);
  if (exponent === null) throw invalidField(loc, 'Unknown currency (ISO 4217 code)', currency);
  const text = Number.isFinite(amount) && amount >= 0 ? plainDecimal(amount) : null;
  const m = text === null ? null : /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (m === null || (m[2] ?? '').length > exponent)
    throw invalidField(
      loc,
      exponent === 0
        ? `${currency} has no minor unit: give a whole amount`
        : `${currency} has ${exponent} decimals at most`,
      amount,
    );
  const minor = Number(m[1]! + (m[2] ?? '').padEnd(exponent, '0'));
  if (!Number.isSafeInteger(minor)) throw invalidField(loc, 'Amount too large', amount);
  return minor;
}

/** Integer minor units (a number or the driver's bigint text) → major units: 1234 EUR → 12.34. */
export function majorUnits(minor: number | string, currency: string): number {
  const exponent = currencyExponent(currency) ?? 2;
  const text = String(minor);
  const negative = text.startsWith('-');
  const digits = (negative ? text.slice(1) : text).padStart(exponent + 1, '0');
  const major = exponent === 0 ? digits : `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
  return Number(negative ? `-${major}` : major);
}

/** A JavaScript number's decimal text without exponent notation (1e-7 → "0.0000001"). */
function plainDecimal(n: number): string | null {
  const text = String(n);
  if (!/e/i.test(text)) return text;
  const fixed = n.toFixed(20).replace(/\.?0+$/, '');
  return Number(fixed) === n ? fixed : null;
}
