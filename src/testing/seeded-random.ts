/**
 * Deterministic PRNG for tests (mulberry32): the same seed gives the same sequence, so a fuzz
 * failure can be replayed from its seed. Not for anything security-related.
 */
export interface SeededRandom {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** n random bytes. */
  bytes(n: number): Uint8Array;
  pick<T>(items: readonly T[]): T;
}

export function createSeededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  return {
    next,
    int,
    bytes(n) {
      const b = new Uint8Array(n);
      for (let i = 0; i < n; i++) b[i] = int(256);
      return b;
    },
    pick(items) {
      if (items.length === 0) throw new Error('pick from empty list');
      return items[int(items.length)]!;
    },
  };
}
