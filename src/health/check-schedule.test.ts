import { describe, expect, it } from 'vitest';
import { checkLockKey, checkOffsetMs, dueChecks } from './check-schedule.ts';

const MINUTE = 60_000;
const members = Array.from({ length: 10_000 }, (_, i) => ({ memberId: i + 1 }));

describe('check schedule', () => {
  it('spreads 10,000 members over the minute instead of bursting at second 0', () => {
    const perSecond = new Array<number>(60).fill(0);
    for (const m of members) perSecond[Math.floor(checkOffsetMs(m.memberId, MINUTE) / 1000)]!++;
    // 10,000 / 60 ≈ 167 per second; allow hash noise, forbid bursts.
    expect(Math.max(...perSecond)).toBeLessThan(250);
    expect(Math.min(...perSecond)).toBeGreaterThan(100);
  });

  it('gives each member exactly one slot per minute when ticked every second', () => {
    const start = Date.UTC(2026, 0, 1, 0, 0, 17, 250);
    const seen = new Map<number, number>();
    for (let t = start; t < start + 3 * MINUTE; t += 1000) {
      for (const d of dueChecks(members, t, t + 1000, MINUTE)) {
        seen.set(d.member.memberId, (seen.get(d.member.memberId) ?? 0) + 1);
        expect(d.slotAt).toBeGreaterThan(t);
        expect(d.slotAt).toBeLessThanOrEqual(t + 1000);
        expect(Math.floor(d.slotAt / MINUTE)).toBe(d.period);
      }
    }
    expect(seen.size).toBe(members.length);
    expect([...seen.values()].every((n) => n === 3)).toBe(true);
  });

  it('answers at most one slot per member after a stall longer than an interval', () => {
    const due = dueChecks(members.slice(0, 100), 0, 5 * MINUTE, MINUTE);
    expect(due).toHaveLength(100);
    expect(due.every((d) => d.period === 4)).toBe(true);
    expect(dueChecks(members, 1000, 1000, MINUTE)).toEqual([]);
  });

  it('orders due checks by slot and keys locks by PoP, member and minute', () => {
    const due = dueChecks(members, 0, MINUTE, MINUTE);
    expect(due.map((d) => d.slotAt)).toEqual([...due.map((d) => d.slotAt)].sort((a, b) => a - b));
    expect(checkLockKey(42, 29_000_000, 'FRA')).toBe('health:FRA:42:29000000');
  });
});
