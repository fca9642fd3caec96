import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Bus, BusHandler, WindowResult } from './bus.ts';

/*
 * Sliding windows on sorted sets scored by time: for each key, drop what left the window, count,
 * add when allowed, and report when the oldest counted event leaves. One script for all the
 * windows of a batch, so each is atomic across API processes and a batch is one command.
 * KEYS the keys; ARGV four per key: now, window, limit (-1 = count only, -2 = record only),
 * member. Answers three numbers per key: allowed, count, retry.
 *
 * A hit on a set holding fewer members than the limit is allowed whatever their age, so the
 * members that left the window are dropped only once the set is full (a hit's count is then at
 * most the limit, not exact: callers of hits read `allowed` and `retry`). Most hits of a busy
 * API are far under their limits: three commands each instead of four. Counts and records drop
 * the old members every time.
 */
const SLIDING_WINDOWS_LUA = `
local out = {}
for i = 1, #KEYS do
  local key = KEYS[i]
  local now = tonumber(ARGV[i * 4 - 3])
  local window = tonumber(ARGV[i * 4 - 2])
  local limit = tonumber(ARGV[i * 4 - 1])
  local count
  if limit >= 0 then
    count = redis.call('ZCARD', key)
    if count >= limit then
      redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
      count = redis.call('ZCARD', key)
    end
  else
    redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
    count = redis.call('ZCARD', key)
  end
  local allowed = 0
  if limit == -2 or (limit >= 0 and count < limit) then
    redis.call('ZADD', key, now, ARGV[i * 4])
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
  out[i * 3 - 2] = allowed
  out[i * 3 - 1] = count
  out[i * 3] = retry
end
return out
`;

/** At most this many windows in one script call (its arguments are spread into one command). */
const WINDOWS_PER_COMMAND = 1_000;

/** How long a subscription waits for a connection being made before going on without it. */
const SUBSCRIBE_WAIT_MS = 3_000;

const UNLOCK_LUA = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/** The scripts as commands of the connection: sent by hash (EVALSHA), their text only once. */
interface ScriptedRedis extends Redis {
  /** numberOfKeys, the keys, then now, window, limit and member per key. */
  slidingWindows(numberOfKeys: number, ...keysThenArgs: (string | number)[]): Promise<number[]>;
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
  private readonly pendingWindows: PendingWindow[] = [];
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
    commands.defineCommand('slidingWindows', { lua: SLIDING_WINDOWS_LUA });
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
   * auto-pipelining alone does not join), and a command per count cost more than the count.
   */
  private sendWindows(): void {
    const batch = this.pendingWindows.splice(0, WINDOWS_PER_COMMAND);
    if (batch.length === 0) return;
    if (this.pendingWindows.length > 0) setImmediate(() => this.sendWindows());
    const keys: string[] = [];
    const args: (string | number)[] = [];
    for (const w of batch) {
      keys.push(w.key);
      args.push(w.nowMs, w.windowMs, w.limit, w.member);
    }
    this.commands.slidingWindows(batch.length, ...keys, ...args).then(
      (results) =>
        batch.forEach((w, i) => {
          const allowed = results[i * 3]!;
          const count = results[i * 3 + 1]!;
          const retry = results[i * 3 + 2]!;
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
