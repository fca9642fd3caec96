import { describe, expect, it } from 'vitest';
import { activeHours, arrearsMinor, monthBefore, tenThousandthsOf } from './hourly-arrears.ts';

const d = (iso: string) => new Date(iso);

describe('hourly arrears', () => {
  it('reads prices of up to 4 decimals exactly', () => {
    expect(['0.0068', '4', '4.5', '12.3456', '0'].map(tenThousandthsOf)).toEqual([
      68, 40000, 45000, 123456, 0,
    ]);
    expect(['0.00001', '1,5', '-1', ''].map(tenThousandthsOf)).toEqual([null, null, null, null]);
  });

  it('counts every hour begun inside the month while active', () => {
    const { start, end } = monthBefore(d('2026-02-01T00:00:00Z'));
    expect([start.toISOString(), end.toISOString()]).toEqual([
      '2026-01-01T00:00:00.000Z',
      '2026-02-01T00:00:00.000Z',
    ]);
    expect(activeHours(start, end, d('2025-12-20T00:00:00Z'), null)).toBe(744);
    expect(activeHours(start, end, d('2026-01-31T23:00:00.001Z'), null)).toBe(1);
    expect(activeHours(start, end, d('2026-01-10T10:30:00Z'), d('2026-01-10T12:30:00.001Z'))).toBe(3);
    expect(activeHours(start, end, d('2026-01-10T10:00:00Z'), d('2026-01-10T12:00:00Z'))).toBe(2);
    expect(activeHours(start, end, d('2025-11-01T00:00:00Z'), d('2025-12-31T00:00:00Z'))).toBe(0);
    expect(activeHours(start, end, d('2026-02-01T00:00:00Z'), null)).toBe(0);
    expect(monthBefore(d('2026-01-15T09:00:00Z')).start.toISOString()).toBe('2025-12-01T00:00:00.000Z');
  });

  it('rounds the line half up to cents once, never per hour', () => {
    expect(arrearsMinor(744, '0.0068')).toBe(506); // 5.0592
    expect(arrearsMinor(1, '0.0068')).toBe(1); // 0.0068 → 0.01
    expect(arrearsMinor(1, '0.0049')).toBe(0);
    expect(arrearsMinor(10, '0.0125')).toBe(13); // 0.125 → 0.13 (half up)
    expect(arrearsMinor(3, '0.00001')).toBeNull();
  });
});
