import type { MemberHealth } from '../../dns/index.ts';
import type { MemberHealthEvent } from '../../health/member-health-channel.ts';
import type { Unsubscribe } from '../../kernel/events/domain-events.ts';

/** The data plane's mutable health view, as far as this sync needs it. */
export interface HealthTableWriter {
  set(memberId: number, status: MemberHealth): void;
}

/** A copy of the health view kept elsewhere (the health snapshot file). */
export interface HealthMirror extends HealthTableWriter {
  replaceAll(all: ReadonlyMap<number, MemberHealth>): void;
}

export interface MemberHealthSyncOptions {
  /** Told every status the table gets (and the full load as one replaceAll). */
  readonly mirror?: HealthMirror;
  /** The health last known, when the start-up read fails (the health snapshot file). */
  readonly fallback?: () => Promise<ReadonlyMap<number, MemberHealth> | null>;
}

/**
 * Keeps a DNS node's member health view current: every stored status at start, then each change
 * from the member-health channel, applied in place (no zone snapshot rebuild). Events that arrive
 * while the start-up read runs are applied after it, so an older stored status never overwrites a
 * newer event. When the database cannot be read, the fallback's statuses serve instead.
 */
export class MemberHealthSync {
  private unsubscribe: (() => Promise<void>) | null = null;

  constructor(
    private readonly table: HealthTableWriter,
    private readonly loadAll: () => Promise<ReadonlyMap<number, MemberHealth>>,
    private readonly subscribe: (handler: (event: MemberHealthEvent) => void) => Promise<Unsubscribe>,
    private readonly options: MemberHealthSyncOptions = {},
  ) {}

  /**
   * Resolves with where the health came from; rejects with the database's error when neither it
   * nor the fallback had any (every member then counts as `unknown`, i.e. healthy).
   */
  async start(): Promise<'database' | 'fallback'> {
    let pending: MemberHealthEvent[] | null = [];
    this.unsubscribe = await this.subscribe((event) => {
      if (pending !== null) pending.push(event);
      else this.set(event.memberId, event.status);
    });
    try {
      try {
        const all = await this.loadAll();
        this.options.mirror?.replaceAll(all);
        for (const [memberId, status] of all) this.table.set(memberId, status);
        return 'database';
      } catch (error) {
        const last = await this.options.fallback?.().catch(() => null);
        if (last === undefined || last === null) throw error;
        for (const [memberId, status] of last) this.set(memberId, status);
        return 'fallback';
      }
    } finally {
      for (const event of pending) this.set(event.memberId, event.status);
      pending = null;
    }
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private set(memberId: number, status: MemberHealth): void {
    this.table.set(memberId, status);
    this.options.mirror?.set(memberId, status);
  }
}
