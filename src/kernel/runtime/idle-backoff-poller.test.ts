import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IdleBackoffPoller } from './idle-backoff-poller.ts';

/** Timers are vitest's fake ones: the waits are read off the clock, never slept. */
describe('IdleBackoffPoller', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const roundsAt = () => {
    const at: number[] = [];
    let work = 0;
    let failing = false;
    let errors = 0;
    const poller = new IdleBackoffPoller(
      async () => {
        at.push(Date.now());
        if (failing) throw new Error('round failed');
        if (work === 0) return false;
        work--;
        return true;
      },
      () => errors++,
    );
    return {
      poller,
      at,
      setWork: (n: number) => (work = n),
      fail: () => (failing = true),
      errors: () => errors,
      gaps: () => at.slice(1).map((t, i) => t - at[i]!),
    };
  };

  it('doubles its wait after each idle round up to the longest, and polls at the shortest while rounds find work', async () => {
    const p = roundsAt();
    p.poller.start(250, 2_000);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(p.gaps().slice(0, 5)).toEqual([500, 1_000, 2_000, 2_000, 2_000]);
    p.at.length = 0;
    p.setWork(3);
    await vi.advanceTimersByTimeAsync(2_000);
    await vi.advanceTimersByTimeAsync(2_000);
    // The round after an idle wait found work: three more at 250 ms, then backing off again.
    expect(p.gaps().slice(0, 5)).toEqual([250, 250, 250, 500, 1_000]);
    await p.poller.stop();
  });

  it('runs a round at once on wake and polls at the shortest interval again', async () => {
    const p = roundsAt();
    p.poller.start(250, 8_000);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(p.poller.currentDelayMs).toBe(8_000);
    const before = p.at.length;
    const wokeAt = Date.now();
    p.poller.wake();
    await vi.advanceTimersByTimeAsync(0);
    expect(p.at.length).toBe(before + 1);
    expect(p.at.at(-1)).toBe(wokeAt);
    // The wake's own round was idle: the next waits 500 ms, not 8 s.
    await vi.advanceTimersByTimeAsync(500);
    expect(p.at.length).toBe(before + 2);
    await p.poller.stop();
  });

  it('never overlaps rounds: a wake during a round runs one more right after it', async () => {
    let inFlight = 0;
    let most = 0;
    let rounds = 0;
    let release: (() => void) | null = null;
    const poller = new IdleBackoffPoller(
      async () => {
        inFlight++;
        most = Math.max(most, inFlight);
        rounds++;
        await new Promise<void>((r) => (release = r));
        inFlight--;
        return false;
      },
      () => {},
    );
    poller.wake();
    poller.wake();
    poller.wake();
    await vi.advanceTimersByTimeAsync(0);
    expect(rounds).toBe(1);
    release!();
    await vi.advanceTimersByTimeAsync(0);
    expect(rounds).toBe(2);
    release!();
    await poller.idle();
    expect(rounds).toBe(2);
    expect(most).toBe(1);
  });

  it('goes on after a round that throws, reporting it, and schedules nothing after stop()', async () => {
    const p = roundsAt();
    p.fail();
    p.poller.start(100, 100);
    await vi.advanceTimersByTimeAsync(350);
    expect(p.errors()).toBe(3);
    await p.poller.stop();
    const n = p.at.length;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(p.at.length).toBe(n);
  });
});
