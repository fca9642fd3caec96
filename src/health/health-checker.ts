import type { Bus } from '../kernel/events/bus.ts';
import type { Clock } from '../kernel/clock.ts';
import type { Logger } from '../kernel/log/logger.ts';
import { checkLockKey, DEFAULT_CHECK_INTERVAL_MS, dueChecks } from './check-schedule.ts';
import type { HealthStatus, HealthTarget, ProbeResult } from './health-target.ts';
import { MEMBER_HEALTH_CHANNEL, type MemberHealthEvent } from './member-health-channel.ts';
import type { MemberProber } from './probe-member.ts';

/** Where the checker learns which members to probe (members with a `health_mode` other than none). */
export interface MemberSource {
  listTargets(): Promise<readonly HealthTarget[]>;
}

/** A member's decided status before and after a probe was recorded. */
export interface RecordedHealth {
  readonly previous: HealthStatus;
  readonly status: HealthStatus;
}

/**
 * Where results go: stores the probe, decides the member's status (quorum over PoPs, flap
 * damping: health-decision.ts) and answers it with the one before, or null when the member no
 * longer exists.
 */
export interface MemberStatusSink {
  record(target: HealthTarget, result: ProbeResult): Promise<RecordedHealth | null>;
}

export interface HealthCheckerOptions {
  readonly source: MemberSource;
  readonly sink: MemberStatusSink;
  readonly bus: Bus;
  readonly clock: Clock;
  readonly probe: MemberProber;
  readonly log: Pick<Logger, 'warn' | 'error' | 'debug'>;
  /** One probe per member per interval; 60 s in production (HEALTH_CHECK_INTERVAL_S is for tests). */
  readonly intervalMs?: number;
  /**
   * This checker's PoP: the checkers of one PoP share the work (one probe per member per interval
   * among them), every PoP probes every member.
   */
  readonly pop?: string;
  /** Probes in flight at most, per process. */
  readonly concurrency?: number;
  /** How often the member list is re-read; default min(10 s, interval). */
  readonly refreshMs?: number;
}

export const DEFAULT_CONCURRENCY = 50;

export type CheckDeps = Pick<HealthCheckerOptions, 'probe' | 'sink' | 'bus' | 'log'>;

export interface CheckOutcome {
  readonly result: ProbeResult;
  /** The member's decided status after this probe; null when the member is gone. */
  readonly status: HealthStatus | null;
}

/**
 * One check outside any schedule or lock: probe, store, and publish the member's status when the
 * decision changed. The API's "run a check now" and every scheduled probe go through it.
 */
export async function runCheck(target: HealthTarget, deps: CheckDeps): Promise<CheckOutcome> {
  const result = await deps.probe(target);
  const recorded = await deps.sink.record(target, result);
  if (recorded !== null && recorded.previous !== recorded.status) {
    const event: MemberHealthEvent = {
      memberId: target.memberId,
      zoneId: target.zoneId,
      status: recorded.status,
    };
    await deps.bus.publish(MEMBER_HEALTH_CHANNEL, event);
    deps.log.debug({ ...event, error: result.error }, 'member health changed');
  }
  return { result, status: recorded?.status ?? null };
}

/**
 * Runs the schedule: each tick finds the members whose slot passed since the last tick, and a
 * bounded pool of workers probes them — each one only after taking that member's lock for that
 * interval and PoP on the bus, so the checker processes of one PoP probe every member once per
 * interval in total, and every PoP does.
 * A changed status is published on MEMBER_HEALTH_CHANNEL.
 */
export class HealthChecker {
  readonly intervalMs: number;
  private readonly concurrency: number;
  private readonly refreshMs: number;
  private targets: readonly HealthTarget[] = [];
  private refreshedAt = Number.NEGATIVE_INFINITY;
  private lastTickAt: number | null = null;
  private readonly queue: { target: HealthTarget; period: number }[] = [];
  private readonly queued = new Set<number>();
  private readonly running = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly options: HealthCheckerOptions) {
    this.intervalMs = options.intervalMs ?? DEFAULT_CHECK_INTERVAL_MS;
    this.concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    this.refreshMs = options.refreshMs ?? Math.min(10_000, this.intervalMs);
  }

  /** Ticks on a real timer (at most once a second, ten times per interval when shorter). */
  start(): void {
    if (this.timer !== null) return;
    this.stopped = false;
    const every = Math.max(50, Math.min(1000, Math.floor(this.intervalMs / 10)));
    this.timer = setInterval(() => {
      if (this.ticking === null) this.ticking = this.tick().finally(() => (this.ticking = null));
    }, every);
    this.timer.unref();
  }

  /** Stops scheduling, drops what is queued and waits for the probes in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.queue.length = 0;
    this.queued.clear();
    await this.ticking;
    await this.idle();
  }

  /**
   * One scheduling step at clock.now(): re-reads the members when due, queues those whose slot is
   * in (last tick, now]. The first tick only sets the mark: a (re)started checker does not burst
   * through the slots it missed — other checkers had them, or the next interval has them.
   */
  async tick(): Promise<void> {
    const now = this.options.clock.now();
    if (now - this.refreshedAt >= this.refreshMs) {
      try {
        this.targets = await this.options.source.listTargets();
        this.refreshedAt = now;
      } catch (error) {
        this.options.log.error({ err: error }, 'health checker: reading members failed');
      }
    }
    const from = this.lastTickAt ?? now;
    this.lastTickAt = now;
    for (const due of dueChecks(this.targets, from, now, this.intervalMs)) {
      if (this.queued.has(due.member.memberId)) continue;
      this.queued.add(due.member.memberId);
      this.queue.push({ target: due.member, period: due.period });
    }
    this.pump();
  }

  /** Resolves when nothing is queued or in flight (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /**
   * Probes `target` now, outside the schedule and without a lock (the API's "run a check now"),
   * records and publishes like a scheduled probe.
   */
  async checkNow(target: HealthTarget): Promise<CheckOutcome> {
    return runCheck(target, this.options);
  }

  private pump(): void {
    while (!this.stopped && this.running.size < this.concurrency && this.queue.length > 0) {
      const job = this.queue.shift()!;
      const run = this.runJob(job.target, job.period).finally(() => {
        this.queued.delete(job.target.memberId);
        this.running.delete(run);
        this.pump();
      });
      this.running.add(run);
    }
  }

  private async runJob(target: HealthTarget, period: number): Promise<void> {
    try {
      const mine = await this.options.bus.tryLock(
        checkLockKey(target.memberId, period, this.options.pop ?? ''),
        this.intervalMs,
      );
      if (!mine || this.stopped) return;
      await runCheck(target, this.options);
    } catch (error) {
      this.options.log.error({ err: error, memberId: target.memberId }, 'health check failed');
    }
  }
}
