import { describe, expect, it } from 'vitest';
import { SIGNATURE_VALIDITY_MAX_S } from '../../../dns/index.ts';
import { DISABLE_GRACE_MS, nextKeyAction, prepublishMs, type ScheduledKey } from './dnssec-key-schedule.ts';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);
const base = { dnskeyTtlS: 3600, zskRollDays: 30, disablingSince: null };
const ksk: ScheduledKey = {
  id: 1,
  role: 'ksk',
  state: 'active',
  publishedAt: T0,
  activatedAt: T0,
  retiredAt: null,
};
const zsk: ScheduledKey = {
  id: 2,
  role: 'zsk',
  state: 'active',
  publishedAt: T0,
  activatedAt: T0,
  retiredAt: null,
};

describe('DNSSEC key schedule (pre-publish ZSK rollover)', () => {
  it('publishes the next ZSK one DNSKEY TTL (plus margin) before the roll, then activates, then withdraws', () => {
    const lead = prepublishMs(3600);
    expect(lead).toBeGreaterThanOrEqual(3600 * 1000);
    expect(nextKeyAction({ ...base, keys: [ksk, zsk], now: T0 + 30 * DAY - lead - 1 })).toBeNull();
    const publishAt = T0 + 30 * DAY - lead;
    expect(nextKeyAction({ ...base, keys: [ksk, zsk], now: publishAt })).toEqual({ kind: 'publish-zsk' });
    const next: ScheduledKey = {
      id: 3,
      role: 'zsk',
      state: 'published',
      publishedAt: publishAt,
      activatedAt: null,
      retiredAt: null,
    };
    // Not before it has been published for the lead time, nor before the old key is due.
    expect(nextKeyAction({ ...base, keys: [ksk, zsk, next], now: publishAt + lead - 1 })).toBeNull();
    const rollAt = publishAt + lead;
    expect(nextKeyAction({ ...base, keys: [ksk, zsk, next], now: rollAt })).toEqual({
      kind: 'activate-zsk',
      newId: 3,
      oldId: 2,
    });
    const retired = { ...zsk, state: 'retired' as const, retiredAt: rollAt };
    const active = { ...next, state: 'active' as const, activatedAt: rollAt };
    const keys = [ksk, retired, active];
    expect(nextKeyAction({ ...base, keys, now: rollAt + SIGNATURE_VALIDITY_MAX_S * 1000 - 1 })).toBeNull();
    expect(nextKeyAction({ ...base, keys, now: rollAt + SIGNATURE_VALIDITY_MAX_S * 1000 })).toEqual({
      kind: 'withdraw',
      id: 2,
    });
    // A published key that was published late still waits the full lead.
    const late = { ...next, publishedAt: T0 + 40 * DAY };
    expect(nextKeyAction({ ...base, keys: [ksk, zsk, late], now: T0 + 40 * DAY + 1 })).toBeNull();
  });

  it('stops signing once the grace after turning DNSSEC off has passed', () => {
    const off = { ...base, disablingSince: T0, keys: [ksk, zsk] };
    expect(nextKeyAction({ ...off, now: T0 + DISABLE_GRACE_MS - 1 })).toBeNull();
    expect(nextKeyAction({ ...off, now: T0 + DISABLE_GRACE_MS })).toEqual({ kind: 'unsign' });
  });
});
