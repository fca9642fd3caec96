import { describe, expect, it } from 'vitest';
import { StatusCache } from './status-cache.ts';

describe('edge: the status cache', () => {
  const status = { description: { text: 'up' } };

  it('is fresh for the ttl, then stale but kept; per route and protocol', () => {
    const c = new StatusCache();
    expect(c.get(1, 767, 10, 0)).toBeNull();
    c.put(1, 767, status, 1_000);
    expect(c.get(1, 767, 10, 10_999)).toEqual({ status, fresh: true });
    expect(c.get(1, 767, 10, 11_000)).toEqual({ status, fresh: false });
    expect(c.get(1, 766, 10, 1_000)).toBeNull();
    c.forgetRoute(1);
    expect(c.get(1, 767, 10, 1_000)).toBeNull();
  });

  it('keeps at most its bound, dropping the least recently written', () => {
    const c = new StatusCache(2);
    c.put(1, 1, status, 0);
    c.put(2, 1, status, 0);
    c.put(1, 1, status, 1);
    c.put(3, 1, status, 2);
    expect(c.size).toBe(2);
    expect(c.get(2, 1, 10, 2)).toBeNull();
    expect(c.get(1, 1, 10, 2)).not.toBeNull();
  });
});
