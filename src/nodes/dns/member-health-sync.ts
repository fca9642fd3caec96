import type { MemberHealth } from '../../dns/index.ts';
import type { MemberHealthEvent } from '../../health/member-health-channel.ts';
import type { Unsubscribe } from '../../kernel/events/domain-events.ts';
import { settledWithin, START_DATABASE_WAIT_MS } from './zone-sync.ts';

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
  /** How long start waits for the database before the fallback serves (START_DATABASE_WAIT_MS). */
  readonly startWaitMs?: number;
}

/**
 * Keeps a DNS node's member health view current: every stored status at start, then each change
 * from the member-health channel, applied in place (no zone snapshot rebuild). Events that arrive
 * while the start-up read runs are applied after it, so an older stored status never overwrites a
 * newer event. When the database cannot be read, the fallback's statuses serve instead.
 */
export class MemberHealthSync {
  private unsubscribe: (() => Promise<void>) | null = null;
  /** Members set since the start while a late start-up read is still coming (it must not undo them). */
  private toldSinceStart: Set<number> | null = null;

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
    const loading = this.loadAll();
    try {
      const outcome = await settledWithin(loading, this.options.startWaitMs ?? START_DATABASE_WAIT_MS);
      if (outcome !== 'late' && 'value' in outcome) {
        this.options.mirror?.replaceAll(outcome.value);
        for (const [memberId, status] of outcome.value) this.table.set(memberId, status);
        return 'database';
      }
      const last = await this.options.fallback?.().catch(() => null);
      if (last === undefined || last === null) {
        if (outcome === 'late') return await this.startFrom(loading); // nothing else: wait for it
        throw outcome.error;
      }
      for (const [memberId, status] of last) this.set(memberId, status);
      if (outcome === 'late') this.takeLateLoad(loading, pending);
      return 'fallback';
    } finally {
      for (const event of pending) this.set(event.memberId, event.status);
      pending = null;
    }
  }

  private async startFrom(loading: Promise<ReadonlyMap<number, MemberHealth>>): Promise<'database'> {
    const all = await loading;
    this.options.mirror?.replaceAll(all);
    for (const [memberId, status] of all) this.table.set(memberId, status);
    return 'database';
  }

  /**
   * The start-up read that outlasted the start wait, applied when it arrives: every member but
   * those an event told about since the start (the event is newer than the read).
   */
  private takeLateLoad(
    loading: Promise<ReadonlyMap<number, MemberHealth>>,
    early: MemberHealthEvent[],
  ): void {
    const told = new Set(early.map((e) => e.memberId));
    this.toldSinceStart = told;
    loading.then(
      (all) => {
        this.toldSinceStart = null;
        if (this.unsubscribe === null) return;
        for (const [memberId, status] of all) if (!told.has(memberId)) this.set(memberId, status);
      },
      () => {
        this.toldSinceStart = null;
      },
    );
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private set(memberId: number, status: MemberHealth): void {
    this.toldSinceStart?.add(memberId);
    this.table.set(memberId, status);
    this.options.mirror?.set(memberId, status);
  }
}
