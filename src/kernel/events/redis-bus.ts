import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Bus, BusHandler, WindowResult } from './bus.ts';

/*
 * Sliding window on a sorted set scored by time: drop what left the window, count, add when
 * allowed, and report when the oldest counted event leaves. One script, so it is atomic across
 * API processes. KEYS[1] key; ARGV now, window, limit (-1 = count only, -2 = record only), member.
 */
const SLIDING_WINDOW_LUA = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
local allowed = 0
if limit == -2 or (limit >= 0 and count < limit) then
  redis.call('ZADD', key, now, ARGV[4])
  redis.call('PEXPIRE', key, window)
  count = count + 1
  allowed = 1
end
if limit == -1 then allowed = 1 end
local retry = 0
if allowed == 0 or limit == -1 then
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  if oldest[2] then retry = tonumber(oldest[2]) + window - now end
end
return {allowed, count, retry}
`;

/** How long a subscription waits for a connection being made before going on without it. */
const SUBSCRIBE_WAIT_MS = 3_000;

const UNLOCK_LUA = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/** The scripts as commands of the connection: sent by hash (EVALSHA), their text only once. */
interface ScriptedRedis extends Redis {
  slidingWindow(
    key: string,
    now: number,
    window: number,
    limit: number,
    member: string,
  ): Promise<[number, number, number]>;
  unlockIfHeld(key: string, token: string): Promise<number>;
}

interface PendingWindow {
  readonly key: string;
  readonly nowMs: number;
  readonly windowMs: number;
  readonly limit: number;
  readonly member: string;
  resolve(result: WindowResult): void;
  reject(error: unknown): void;
}

/** The bus over Redis: pub/sub on a dedicated subscriber connection, the rest on a command one. */
export class RedisBus implements Bus {
  private readonly commands: ScriptedRedis;
  private subscriber: Redis | null = null;
  private readonly handlers = new Map<string, Set<BusHandler>>();
  private readonly lockTokens = new Map<string, string>();
  private seq = 0;
  private pendingWindows: PendingWindow[] = [];
  private readonly instance = `${process.pid}.${randomBytes(4).toString('hex')}`;

  /** `prefix` namespaces every key and channel (tests run side by side on one Redis). */
  constructor(
    private readonly url: string,
    private readonly prefix = '',
  ) {
    // Commands of one event-loop turn go out in one write (auto-pipelining): under load, every
    // request counts its limits here, and a write per command cost more than the count itself.
    const commands = new Redis(url, {
      lazyConnect: false,
      maxRetriesPerRequest: 2,
      enableAutoPipelining: true,
    });
    // A limit is counted on every API request: EVAL would send the script's 600 bytes each time.
    commands.defineCommand('slidingWindow', { numberOfKeys: 1, lua: SLIDING_WINDOW_LUA });
    commands.defineCommand('unlockIfHeld', { numberOfKeys: 1, lua: UNLOCK_LUA });
    this.commands = commands as ScriptedRedis;
    // Reconnection is ioredis's job; an error event without a listener would crash the process.
    this.commands.on('error', () => undefined);
  }

  async publish(channel: string, message: unknown): Promise<void> {
    await this.commands.publish(this.prefix + channel, JSON.stringify(message));
  }

  async subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>> {
    const sub = this.subscriberConnection();
    const full = this.prefix + channel;
    let set = this.handlers.get(full);
    if (!set) {
      this.handlers.set(full, (set = new Set()));
      // While Redis is away the SUBSCRIBE waits in the connection's queue and is sent when it
      // comes back: a process starting without Redis goes on (and catches up by resync). A
      // connection still being made is given a moment, so a live Redis subscribes before this
      // returns (a publish right after must be heard).
      const subscribed = sub.subscribe(full);
      subscribed.catch(() => undefined);
      if (sub.status !== 'reconnecting' && sub.status !== 'end') {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          subscribed.catch(() => undefined),
          new Promise<void>((resolve) => (timer = setTimeout(resolve, SUBSCRIBE_WAIT_MS))),
        ]);
        clearTimeout(timer);
      }
    }
    set.add(handler);
    return async () => {
      set.delete(handler);
      if (set.size === 0) {
        this.handlers.delete(full);
        await sub.unsubscribe(full);
      }
    };
  }

  async incrementCounters(key: string, fields: Record<string, number>, ttlSeconds: number): Promise<void> {
    const full = this.prefix + key;
    const pipeline = this.commands.pipeline();
    for (const [field, by] of Object.entries(fields)) pipeline.hincrby(full, field, by);
    pipeline.expire(full, ttlSeconds);
    await pipeline.exec();
  }

  async readCounters(key: string): Promise<Record<string, number>> {
    const raw = await this.commands.hgetall(this.prefix + key);
    return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Number(v)]));
  }

  slidingWindowHit(key: string, nowMs: number, windowMs: number, limit: number): Promise<WindowResult> {
    return this.window(key, nowMs, windowMs, limit);
  }

  slidingWindowCount(key: string, nowMs: number, windowMs: number): Promise<WindowResult> {
    return this.window(key, nowMs, windowMs, -1);
  }

  async slidingWindowRecord(key: string, nowMs: number, windowMs: number): Promise<void> {
    await this.window(key, nowMs, windowMs, -2);
  }

  async tryLock(key: string, ttlMs: number): Promise<boolean> {
    const token = randomBytes(12).toString('hex');
    const ok = await this.commands.set(this.prefix + key, token, 'PX', ttlMs, 'NX');
    if (ok === 'OK') this.lockTokens.set(key, token);
    return ok === 'OK';
  }

  async unlock(key: string): Promise<void> {
    const token = this.lockTokens.get(key);
    if (token === undefined) return;
    this.lockTokens.delete(key);
    await this.commands.unlockIfHeld(this.prefix + key, token);
  }

  subscriptionsLive(): boolean {
    // ioredis resubscribes by itself on reconnect (autoResubscribe); 'ready' comes after that.
    return this.subscriber === null || this.subscriber.status === 'ready';
  }

  reachable(): boolean {
    return this.commands.status === 'ready' && this.subscriptionsLive();
  }

  async close(): Promise<void> {
    this.handlers.clear();
    await Promise.allSettled([this.commands.quit(), this.subscriber?.quit()]);
  }

  private window(key: string, nowMs: number, windowMs: number, limit: number): Promise<WindowResult> {
    // Unique per bus instance, not only per process: two buses in one process (a test's peer, a
    // role and the API) must not count as one member.
    const member = `${nowMs}-${this.instance}-${this.seq++}`;
    return new Promise((resolve, reject) => {
      const pending = { key: this.prefix + key, nowMs, windowMs, limit, member, resolve, reject };
      if (this.pendingWindows.push(pending) === 1) setImmediate(() => this.sendWindows());
    });
  }

  /**
   * The counts asked for in one turn of the event loop, in one pipeline: under load every request
   * asks for one or two, from the I/O callbacks of many sockets (each its own tick, which
   * auto-pipelining alone does not join), and a write per count cost more than the count.
   */
  private sendWindows(): void {
    const batch = this.pendingWindows;
    this.pendingWindows = [];
    const pipeline = this.commands.pipeline() as unknown as {
      slidingWindow(...args: [string, number, number, number, string]): unknown;
      exec(): Promise<[Error | null, unknown][] | null>;
    };
    for (const w of batch) pipeline.slidingWindow(w.key, w.nowMs, w.windowMs, w.limit, w.member);
    pipeline.exec().then(
      (results) =>
        batch.forEach((w, i) => {
          const [error, value] = results?.[i] ?? [new Error('no reply'), null];
          if (error !== null) return w.reject(error);
          const [allowed, count, retry] = value as [number, number, number];
          w.resolve({ allowed: allowed === 1, count, retryAfterMs: Math.max(0, retry) });
        }),
      (error: unknown) => batch.forEach((w) => w.reject(error)),
    );
  }

  private subscriberConnection(): Redis {
    if (this.subscriber) return this.subscriber;
    // No retry limit per request: a subscription must survive any outage, however long.
    const sub = new Redis(this.url, { lazyConnect: false, maxRetriesPerRequest: null });
    sub.on('error', () => undefined);
    sub.on('message', (channel: string, text: string) => {
      const set = this.handlers.get(channel);
      if (!set) return;
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch {
        return;
      }
      for (const handler of set) handler(message);
    });
    this.subscriber = sub;
    return sub;
  }
}
