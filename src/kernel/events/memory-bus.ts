import type { Bus, BusHandler, WindowResult } from './bus.ts';
import type { Clock } from '../clock.ts';
import { systemClock } from '../clock.ts';

/**
 * The in-process bus used when REDIS_URL is unset: one process, so plain maps serve.
 * Messages are delivered asynchronously (a microtask later) like Redis would, never re-entrantly.
 */
export class MemoryBus implements Bus {
  private readonly handlers = new Map<string, Set<BusHandler>>();
  private readonly counters = new Map<string, { fields: Map<string, number>; expiresAt: number }>();
  private readonly windows = new Map<string, number[]>();
  private readonly locks = new Map<string, number>();

  constructor(private readonly clock: Clock = systemClock) {}

  async publish(channel: string, message: unknown): Promise<void> {
    const set = this.handlers.get(channel);
    if (!set) return;
    // A copy through JSON, as Redis would deliver it: no subscriber shares the publisher's object.
    const text = JSON.stringify(message);
    for (const handler of [...set]) queueMicrotask(() => handler(JSON.parse(text)));
  }

  async subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>> {
    let set = this.handlers.get(channel);
    if (!set) this.handlers.set(channel, (set = new Set()));
    set.add(handler);
    return async () => {
      set.delete(handler);
    };
  }

  async incrementCounters(key: string, fields: Record<string, number>, ttlSeconds: number): Promise<void> {
    const now = this.clock.now();
    let entry = this.counters.get(key);
    if (!entry || entry.expiresAt <= now)
      this.counters.set(key, (entry = { fields: new Map(), expiresAt: 0 }));
    for (const [field, by] of Object.entries(fields))
      entry.fields.set(field, (entry.fields.get(field) ?? 0) + by);
    entry.expiresAt = now + ttlSeconds * 1000;
  }

  async readCounters(key: string): Promise<Record<string, number>> {
    const entry = this.counters.get(key);
    if (!entry || entry.expiresAt <= this.clock.now()) return {};
    return Object.fromEntries(entry.fields);
  }

  async slidingWindowHit(key: string, nowMs: number, windowMs: number, limit: number): Promise<WindowResult> {
    const events = this.prune(key, nowMs, windowMs);
    if (events.length >= limit)
      return { allowed: false, count: events.length, retryAfterMs: events[0]! + windowMs - nowMs };
    events.push(nowMs);
    return { allowed: true, count: events.length, retryAfterMs: 0 };
  }

  async slidingWindowCount(key: string, nowMs: number, windowMs: number): Promise<WindowResult> {
    const events = this.prune(key, nowMs, windowMs);
    const retryAfterMs = events.length > 0 ? events[0]! + windowMs - nowMs : 0;
    return { allowed: true, count: events.length, retryAfterMs };
  }

  async slidingWindowRecord(key: string, nowMs: number, windowMs: number): Promise<void> {
    this.prune(key, nowMs, windowMs).push(nowMs);
  }

  async tryLock(key: string, ttlMs: number): Promise<boolean> {
    const now = this.clock.now();
    const until = this.locks.get(key);
    if (until !== undefined && until > now) return false;
    this.locks.set(key, now + ttlMs);
    return true;
  }

  async unlock(key: string): Promise<void> {
    this.locks.delete(key);
  }

  async close(): Promise<void> {
    this.handlers.clear();
  }

  /** Drops events that left the window (at or before nowMs - windowMs) and empty keys. */
  private prune(key: string, nowMs: number, windowMs: number): number[] {
    let events = this.windows.get(key);
    if (!events) this.windows.set(key, (events = []));
    let drop = 0;
    while (drop < events.length && events[drop]! <= nowMs - windowMs) drop++;
    if (drop > 0) events.splice(0, drop);
    return events;
  }
}
