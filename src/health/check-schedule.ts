/**
 * When each member is probed: once per interval (a minute in production), at a fixed offset inside
 * the interval derived from its id, so 10,000 members spread over the minute instead of bursting
 * at second 0. Pure: callers pass the time.
 */
export const DEFAULT_CHECK_INTERVAL_MS = 60_000;

/** FNV-1a over the id's decimal text: stable across processes and restarts. */
function hashId(memberId: number): number {
  let h = 0x811c9dc5;
  for (const ch of String(memberId)) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The member's slot inside every interval, in ms from the interval's start. */
export function checkOffsetMs(memberId: number, intervalMs: number): number {
  return hashId(memberId) % intervalMs;
}

export interface DueCheck<T> {
  readonly member: T;
  /** Index of the interval the slot belongs to (the "minute" of the lock key). */
  readonly period: number;
  /** Epoch ms of the slot. */
  readonly slotAt: number;
}

/**
 * The members whose slot falls in (fromMs, toMs], at most one slot each (a window longer than an
 * interval, after a stall, still probes each member once), earliest slot first.
 */
export function dueChecks<T extends { readonly memberId: number }>(
  members: readonly T[],
  fromMs: number,
  toMs: number,
  intervalMs: number,
): DueCheck<T>[] {
  const due: DueCheck<T>[] = [];
  if (toMs <= fromMs) return due;
  for (const member of members) {
    const offset = checkOffsetMs(member.memberId, intervalMs);
    const period = Math.floor((toMs - offset) / intervalMs);
    const slotAt = period * intervalMs + offset;
    if (slotAt > fromMs) due.push({ member, period, slotAt });
  }
  return due.sort((a, b) => a.slotAt - b.slotAt);
}

/**
 * The bus lock that makes one probe per member per interval across the checker processes of a
 * PoP: whoever takes it probes; it is never released early, and expires with the interval, so a
 * dead checker's members are simply taken by the others of its PoP at their next slot.
 */
export function checkLockKey(memberId: number, period: number, pop: string): string {
  return `health:${pop}:${memberId}:${period}`;
}
