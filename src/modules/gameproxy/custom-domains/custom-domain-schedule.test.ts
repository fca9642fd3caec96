import { describe, expect, it } from 'vitest';
import { afterCheck } from './custom-domain-schedule.ts';

const now = new Date(Date.UTC(2026, 10, 29, 12));
const later = (ms: number): Date => new Date(now.getTime() + ms);
const missing = { kind: 'mismatch', message: 'No CNAME record at mc.example.com' } as const;

describe('the custom domain check schedule', () => {
  it('found: verified, the misses reset, checked again in a day', () => {
    expect(afterCheck({ status: 'failed', missed_checks: 3 }, { kind: 'match' }, now)).toEqual({
      status: 'verified',
      checked_at: now,
      next_check_at: later(24 * 3600_000),
      missed_checks: 0,
      last_error: null,
    });
  });

  it('not found while pending or failed: unchanged, checked again in 10 minutes', () => {
    for (const status of ['pending', 'failed'] as const)
      expect(afterCheck({ status, missed_checks: 0 }, missing, now)).toMatchObject({
        status,
        next_check_at: later(10 * 60_000),
        last_error: missing.message,
      });
  });

  it('not found while verified: a miss a day, failed at the third', () => {
    expect(afterCheck({ status: 'verified', missed_checks: 1 }, missing, now)).toMatchObject({
      status: 'verified',
      missed_checks: 2,
      next_check_at: later(24 * 3600_000),
    });
    expect(afterCheck({ status: 'verified', missed_checks: 2 }, missing, now)).toMatchObject({
      status: 'failed',
      missed_checks: 3,
      next_check_at: later(10 * 60_000),
    });
  });
});
