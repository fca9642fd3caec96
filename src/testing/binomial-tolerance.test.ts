import { describe, expect, it } from 'vitest';
import { binomialTail, binomialTolerance, FALSE_FAILURE } from './binomial-tolerance.ts';
import { createSeededRandom } from './seeded-random.ts';

describe('binomialTolerance', () => {
  it('holds a correct product below one false failure in a million, and is no wider than it must be', () => {
    for (const [n, p] of [
      [400, 0.75],
      [20_000, 0.5],
      [20_000, 2 / 21],
      [20_000, 0.01],
      [100_000, 0.1],
      [2000, 0.5],
    ] as const) {
      const k = binomialTolerance(n, p);
      expect(binomialTail(n, p, k), `${n} ${p}`).toBeLessThan(FALSE_FAILURE);
      expect(binomialTail(n, p, k - 1), `${n} ${p}`).toBeGreaterThanOrEqual(FALSE_FAILURE);
      // Between 4.5σ and 6σ of the binomial: wider than the 3σ that failed correct runs.
      const sd = Math.sqrt(n * p * (1 - p));
      expect(k / sd).toBeGreaterThan(4.5);
      expect(k / sd).toBeLessThan(6);
    }
    expect(binomialTolerance(100, 0)).toBe(0);
    expect(binomialTolerance(100, 1)).toBe(0);
  });

  it('a 3σ bound on 400 draws fails a correct product about once in 300 runs; this bound does not', () => {
    const rnd = createSeededRandom(400);
    const n = 400;
    const p = 0.75;
    const sigma = Math.sqrt((p * (1 - p)) / n);
    const k = binomialTolerance(n, p);
    let threeSigma = 0;
    let bounded = 0;
    for (let run = 0; run < 20_000; run++) {
      let hits = 0;
      for (let i = 0; i < n; i++) if (rnd.next() < p) hits++;
      if (Math.abs(hits / n - p) > 3 * sigma) threeSigma++;
      if (Math.abs(hits - n * p) > k) bounded++;
    }
    expect(binomialTail(n, p, 3 * sigma * n)).toBeGreaterThan(1e-3);
    expect(threeSigma).toBeGreaterThan(20);
    expect(bounded).toBe(0);
  });
});
