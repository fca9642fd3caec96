/**
 * Bounds for assertions on random draws. A suite of thousands of tests runs often: a 3σ bound on
 * an unseeded draw fails a correct product about once in 370 runs per assertion. These bounds are
 * exact binomial tails instead, chosen so a correct product fails one less than once in a million.
 */

/** The false-failure probability every statistical assertion of the suite is held below. */
export const FALSE_FAILURE = 1e-6;

/** P(X = x) for X ~ Binomial(n, p), for x = 0 … n, computed in log space (n may be 100,000). */
function binomialPmf(n: number, p: number): Float64Array {
  const out = new Float64Array(n + 1);
  if (p <= 0 || p >= 1) {
    out[p <= 0 ? 0 : n] = 1;
    return out;
  }
  const logs = new Float64Array(n + 1);
  logs[0] = n * Math.log1p(-p);
  const ratio = Math.log(p) - Math.log1p(-p);
  for (let x = 0; x < n; x++) logs[x + 1] = logs[x]! + Math.log(n - x) - Math.log(x + 1) + ratio;
  for (let x = 0; x <= n; x++) out[x] = Math.exp(logs[x]!);
  return out;
}

/** P(|X − np| > k) for X ~ Binomial(n, p): the chance that a correct product exceeds the bound k. */
export function binomialTail(n: number, p: number, k: number): number {
  const pmf = binomialPmf(n, p);
  let tail = 0;
  for (let x = 0; x <= n; x++) if (Math.abs(x - n * p) > k) tail += pmf[x]!;
  return tail;
}

/**
 * The smallest k (a distance from np, in draws) with P(|X − np| > k) < `falseFailure` for
 * X ~ Binomial(n, p): assert `Math.abs(count − n·p) <= binomialTolerance(n, p)`.
 */
export function binomialTolerance(n: number, p: number, falseFailure = FALSE_FAILURE): number {
  const pmf = binomialPmf(n, p);
  const xs = Array.from({ length: n + 1 }, (_, x) => x).sort(
    (a, b) => Math.abs(b - n * p) - Math.abs(a - n * p),
  );
  // Reject the farthest outcomes while their total stays below the bound; accept from there on.
  let rejected = 0;
  for (const x of xs) {
    if (rejected + pmf[x]! >= falseFailure) return Math.abs(x - n * p);
    rejected += pmf[x]!;
  }
  return 0;
}
