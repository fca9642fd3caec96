import { describe, expect, it } from 'vitest';
import {
  afterParentCheck,
  nextKskAction,
  PARENT_CHECK_INTERVAL_MS,
  type KskInput,
  type KskRollover,
  type RolloverKsk,
} from './ksk-rollover.ts';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);
const NONE: KskRollover = { state: null, lastParentCheckAt: null, parentDsSeenAt: null, parentDsTtlS: null };
const old: RolloverKsk = { id: 1, state: 'active', publishedAt: T0, activatedAt: T0, retiredAt: null };
const incoming: RolloverKsk = {
  id: 3,
  state: 'published',
  publishedAt: T0 + 400 * DAY,
  activatedAt: null,
  retiredAt: null,
};

function input(over: Partial<KskInput>): KskInput {
  return { ksks: [old], rollover: NONE, now: T0, dnskeyTtlS: 3600, kskRollDays: 365, ...over };
}

describe('KSK rollover schedule (RFC 7583 double-DS)', () => {
  it('starts KSK_ROLL_DAYS after the active key began signing, never with 0 days', () => {
    expect(nextKskAction(input({ now: T0 + 365 * DAY - 1 }))).toBeNull();
    expect(nextKskAction(input({ now: T0 + 365 * DAY }))).toEqual({ kind: 'start-ksk-rollover' });
    expect(nextKskAction(input({ now: T0 + 5000 * DAY, kskRollDays: 0 }))).toBeNull();
  });

  it('asks the parent at once, then once an hour, while it waits', () => {
    const waiting = input({
      ksks: [old, incoming],
      rollover: { ...NONE, state: 'waiting_for_parent_ds' },
      now: incoming.publishedAt,
    });
    expect(nextKskAction(waiting)).toEqual({ kind: 'check-parent-ds', newId: 3 });
    const checked = { ...waiting, rollover: { ...waiting.rollover, lastParentCheckAt: waiting.now } };
    expect(nextKskAction({ ...checked, now: waiting.now + PARENT_CHECK_INTERVAL_MS - 1 })).toBeNull();
    expect(nextKskAction({ ...checked, now: waiting.now + PARENT_CHECK_INTERVAL_MS })?.kind).toBe(
      'check-parent-ds',
    );
  });

  it('never moves without the parent DS: a check that does not see it keeps waiting', () => {
    const now = incoming.publishedAt + 90 * DAY;
    const r = afterParentCheck(
      input({
        ksks: [old, incoming],
        rollover: { ...NONE, state: 'parent_ds_seen', parentDsSeenAt: now - DAY, parentDsTtlS: 60 },
        now,
      }),
      null,
    );
    expect(r).toEqual({
      kind: 'state',
      rollover: {
        state: 'waiting_for_parent_ds',
        lastParentCheckAt: now,
        parentDsSeenAt: null,
        parentDsTtlS: null,
      },
    });
  });

  it('swaps only once the DS has been seen for its TTL, at a later check', () => {
    const seenAt = incoming.publishedAt + DAY;
    const first = afterParentCheck(
      input({ ksks: [old, incoming], rollover: { ...NONE, state: 'waiting_for_parent_ds' }, now: seenAt }),
      { ttlS: 7200 },
    );
    expect(first).toEqual({
      kind: 'state',
      rollover: {
        state: 'parent_ds_seen',
        lastParentCheckAt: seenAt,
        parentDsSeenAt: seenAt,
        parentDsTtlS: 7200,
      },
    });
    const seen = first.kind === 'state' ? first.rollover : NONE;
    const early = afterParentCheck(input({ ksks: [old, incoming], rollover: seen, now: seenAt + 3600_000 }), {
      ttlS: 3600,
    });
    expect(early.kind).toBe('state');
    const late = afterParentCheck(input({ ksks: [old, incoming], rollover: seen, now: seenAt + 7200_000 }), {
      ttlS: 3600,
    });
    expect(late).toEqual({ kind: 'swap-ksk', newId: 3, oldId: 1 });
  });

  it('removes the retired KSK one DNSKEY TTL after the swap, then the rollover is over', () => {
    const swappedAt = T0 + 500 * DAY;
    const ksks: RolloverKsk[] = [
      { ...old, state: 'retired', retiredAt: swappedAt },
      { ...incoming, state: 'active', activatedAt: swappedAt },
    ];
    const r = { ...NONE, state: 'retiring_old_key' as const };
    expect(nextKskAction(input({ ksks, rollover: r, now: swappedAt + 3600_000 - 1 }))).toBeNull();
    expect(nextKskAction(input({ ksks, rollover: r, now: swappedAt + 3600_000 }))).toEqual({
      kind: 'remove-old-ksk',
      id: 1,
    });
  });
});
