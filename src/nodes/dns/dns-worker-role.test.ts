import { describe, expect, it } from 'vitest';
import { dnsWorkerPlan } from './dns-worker-role.ts';

const shared = { databaseUrl: 'postgres://db/dns', redisUrl: 'redis://bus' };

describe('dnsWorkerPlan', () => {
  it('runs one worker per core for auto, the count asked otherwise, and 0 means in-process', () => {
    expect(dnsWorkerPlan({ ...shared, dnsWorkers: 'auto' }, () => 6)).toEqual({
      workers: 6,
      inProcessBecause: null,
    });
    expect(dnsWorkerPlan({ ...shared, dnsWorkers: 3 }, () => 6).workers).toBe(3);
    expect(dnsWorkerPlan({ ...shared, dnsWorkers: 0 })).toEqual({ workers: 0, inProcessBecause: null });
  });

  it('serves in-process, saying why, without a shared database or bus', () => {
    const embedded = dnsWorkerPlan({ dnsWorkers: 'auto', databaseUrl: null, redisUrl: 'redis://bus' });
    expect(embedded.workers).toBe(0);
    expect(embedded.inProcessBecause).toMatch(/embedded database/);
    const noRedis = dnsWorkerPlan({ dnsWorkers: 4, databaseUrl: 'postgres://db/dns', redisUrl: null });
    expect(noRedis.workers).toBe(0);
    expect(noRedis.inProcessBecause).toMatch(/REDIS_URL/);
    // Nothing to explain when nobody asked for workers.
    expect(dnsWorkerPlan({ dnsWorkers: 0, databaseUrl: null, redisUrl: null }).inProcessBecause).toBeNull();
  });
});
