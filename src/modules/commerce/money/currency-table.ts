/**
 * The ISO 4217 currencies a shop may price in, with each one's minor-unit exponent (ISO 4217's
 * "minor unit" column): 2 for most (EUR 12.34 is 1234 cents), 0 for the currencies without a
 * minor unit (JPY 1200 is 1200), 3 for the dinars and rials that count in thousandths.
 */
const ZERO_DECIMAL = [
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'ISK',
  'JPY',
  'KMF',
  'KRW',
  'PYG',
  'RWF',
  'UGX',
  'UYI',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
] as const;

const THREE_DECIMAL = ['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'] as const;

const TWO_DECIMAL = [
  'AED',
  'ARS',
  'AUD',
  'BGN',
  'BRL',
  'CAD',
  'CHF',
  'CNY',
  'COP',
  'CZK',
  'DKK',
  'EGP',
  'EUR',
  'GBP',
  'GEL',
  'HKD',
  'HUF',
  'IDR',
  'ILS',
  'INR',
  'KES',
  'KZT',
  'MAD',
  'MXN',
  'MYR',
  'NGN',
  'NOK',
  'NZD',
  'PEN',
  'PHP',
  'PKR',
  'PLN',
  'QAR',
  'RON',
  'RSD',
  'SAR',
  'SEK',
  'SGD',
  'THB',
  'TRY',
  'TWD',
  'UAH',
  'USD',
  'UYU',
  'ZAR',
] as const;

const EXPONENTS: ReadonlyMap<string, number> = new Map([
  ...ZERO_DECIMAL.map((c) => [c, 0] as const),
  ...TWO_DECIMAL.map((c) => [c, 2] as const),
  ...THREE_DECIMAL.map((c) => [c, 3] as const),
]);

/** The minor-unit exponent of a currency (upper-case code), or null when the shop does not know it. */
export function currencyExponent(code: string): number | null {
  return EXPONENTS.get(code) ?? null;
}

/** Every known currency code, sorted. */
export const CURRENCY_CODES: readonly string[] = [...EXPONENTS.keys()].sort();
