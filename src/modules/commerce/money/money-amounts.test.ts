import { describe, expect, it } from 'vitest';
import type { AppError } from '../../../kernel/errors/app-error.ts';
import { currencyExponent } from './currency-table.ts';
import { currencyCodeOf, majorUnits, minorUnits } from './money-amounts.ts';

const refused = (f: () => unknown): readonly unknown[] => {
  try {
    f();
  } catch (e) {
    return ((e as AppError).detail as readonly { loc: readonly unknown[] }[])[0]!.loc;
  }
  throw new Error('not refused');
};

describe('money in minor units of ISO 4217 currencies', () => {
  it('knows each currency’s exponent: 2 for EUR, 0 for JPY, 3 for KWD, none for XYZ', () => {
    expect([currencyExponent('EUR'), currencyExponent('JPY'), currencyExponent('KWD')]).toEqual([2, 0, 3]);
    expect(currencyExponent('XYZ')).toBeNull();
    expect(currencyCodeOf(' eur', ['body', 'c'])).toBe('EUR');
    expect(refused(() => currencyCodeOf('xyz', ['body', 'c']))).toEqual(['body', 'c']);
  });

  it('turns major units into minor units exactly, both ways, refusing more decimals than the currency has', () => {
    const cases: [number, string, number][] = [
      [12.34, 'EUR', 1234],
      [0.1, 'EUR', 10],
      [1.005, 'KWD', 1005],
      [1200, 'JPY', 1200],
      [19.99, 'USD', 1999],
      [0, 'EUR', 0],
      [4.35, 'EUR', 435],
      [1e-7 * 0, 'JPY', 0],
    ];
    for (const [major, code, minor] of cases) {
      expect(minorUnits(major, code, ['x']), `${major} ${code}`).toBe(minor);
      expect(majorUnits(minor, code)).toBe(major);
      expect(majorUnits(String(minor), code)).toBe(major);
    }
    expect(refused(() => minorUnits(12.345, 'EUR', ['body', 'amount']))).toEqual(['body', 'amount']);
    expect(refused(() => minorUnits(12.5, 'JPY', ['p']))).toEqual(['p']);
    expect(refused(() => minorUnits(-1, 'EUR', ['p']))).toEqual(['p']);
    expect(refused(() => minorUnits(1e-7, 'EUR', ['p']))).toEqual(['p']);
    expect(refused(() => minorUnits(1e300, 'EUR', ['p']))).toEqual(['p']);
  });
});
