import { describe, expect, it } from 'vitest';
import { amountOf, majorOf, minorOf, percentOf } from './money.ts';

describe('money in minor units', () => {
  it('reads decimal strings without a float, a third decimal rounded half up', () => {
    expect(minorOf('4.00')).toBe(400);
    expect(minorOf('0.0125')).toBe(1);
    expect(minorOf('1.005')).toBe(101);
    expect(minorOf('1.5e2')).toBeNull();
    expect(majorOf(1999)).toBe(19.99);
  });

  it('takes amounts people give with at most 2 decimals, refusing a third', () => {
    expect(amountOf('1.50')).toBe(150);
    expect(amountOf(12)).toBe(1200);
    expect(amountOf('1.005')).toBeNull();
    expect(amountOf('-1')).toBeNull();
  });

  it('takes a percentage in integers, half up, where a float would round the wrong way', () => {
    // 375 × 9.20 % = 34.5 exactly: a float gives 34.49999999999999 and rounds to 34.
    expect(percentOf(375, '9.20')).toBe(35);
    expect(percentOf(250, '64.60')).toBe(162);
    expect(percentOf(400, '12.50')).toBe(50);
    expect(percentOf(2010, '17.5')).toBe(352);
    expect(percentOf(999, '0')).toBe(0);
    expect(percentOf(1, '49.99')).toBe(0);
    expect(percentOf(1, '50')).toBe(1);
    expect(percentOf(100, 'ten')).toBeNull();
  });
});
