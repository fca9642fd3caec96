import { describe, expect, it } from 'vitest';
import { greatCircleKm } from './great-circle.ts';
import { locationByCode } from './geo-data.ts';

function at(code: string): { latitude: number; longitude: number } {
  const location = locationByCode(code);
  if (location === null) throw new Error(`no location ${code}`);
  return location;
}

describe('greatCircleKm', () => {
  it('is zero between a point and itself', () => {
    expect(greatCircleKm(at('FRA'), at('FRA'))).toBe(0);
  });

  it('matches published city-to-city distances', () => {
    expect(Math.abs(greatCircleKm(at('FRA'), at('JFK')) - 6200)).toBeLessThan(100);
    expect(Math.abs(greatCircleKm(at('LHR'), at('CDG')) - 344)).toBeLessThan(15);
    expect(Math.abs(greatCircleKm(at('SYD'), at('SIN')) - 6300)).toBeLessThan(100);
    expect(Math.abs(greatCircleKm(at('LAX'), at('NRT')) - 8800)).toBeLessThan(150);
  });

  it('is symmetric', () => {
    expect(greatCircleKm(at('GRU'), at('NRT'))).toBeCloseTo(greatCircleKm(at('NRT'), at('GRU')), 9);
  });

  it('takes the short way across the antimeridian', () => {
    const fiji = { latitude: -17.7, longitude: 178 };
    const samoa = { latitude: -13.8, longitude: -172 };
    expect(greatCircleKm(fiji, samoa)).toBeLessThan(1200);
  });

  it('gives half the circumference between antipodes, not NaN', () => {
    const d = greatCircleKm({ latitude: 0, longitude: 0 }, { latitude: 0, longitude: 180 });
    expect(d).toBeCloseTo(Math.PI * 6371.0088, 6);
    expect(greatCircleKm({ latitude: 90, longitude: 0 }, { latitude: -90, longitude: 0 })).toBeCloseTo(d, 6);
  });
});
