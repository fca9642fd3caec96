/** What the analytics module offers the composition root. */
import type { Transaction } from 'kysely';

/** An outbox event as the delivery engine's fan-outs see it (only what analytics reads). */
export interface HeardOrderEvent {
  readonly orgId: number | null;
  readonly name: string;
  readonly data: Readonly<Record<string, unknown>>;
  readonly occurredAt: Date;
}

/**
 * Hears a batch of outbox events inside the delivery engine's transaction (on the embedded
 * database, the only connection) and counts the storefront orders among them as conversions;
 * it fans out to no delivery target.
 */
export type OrderEventsListener = (
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  trx: Transaction<any>,
  events: readonly HeardOrderEvent[],
) => Promise<never[]>;
