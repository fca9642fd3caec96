import type { MemberHealth } from '../../../dns/index.ts';
import type { MemberHealthEvent } from '../../../health/member-health-channel.ts';
import type { Unsubscribe } from '../../../kernel/events/domain-events.ts';

/** The data plane's mutable health view, as far as this sync needs it. */
export interface HealthTableWriter {
  set(memberId: number, status: MemberHealth): void;
}

/**
 * Keeps a DNS node's member health view current: every stored status at start, then each change
 * from the member-health channel, applied in place (no zone snapshot rebuild). Events that arrive
 * while the start-up read runs are applied after it, so an older stored status never overwrites a
 * newer event.
 */
export class MemberHealthSync {
  private unsubscribe: (() => Promise<void>) | null = null;

  constructor(
    private readonly table: HealthTableWriter,
    private readonly loadAll: () => Promise<ReadonlyMap<number, MemberHealth>>,
    private readonly subscribe: (handler: (event: MemberHealthEvent) => void) => Promise<Unsubscribe>,
  ) {}

  async start(): Promise<void> {
    let pending: MemberHealthEvent[] | null = [];
    this.unsubscribe = await this.subscribe((event) => {
      if (pending !== null) pending.push(event);
      else this.table.set(event.memberId, event.status);
    });
    try {
      for (const [memberId, status] of await this.loadAll()) this.table.set(memberId, status);
    } finally {
      for (const event of pending) this.table.set(event.memberId, event.status);
      pending = null;
    }
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
    this.unsubscribe = null;
  }
}
