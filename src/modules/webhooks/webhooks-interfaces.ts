/** What the webhooks module offers other modules: its delivery engine, for targets of their own. */
import type { Transaction } from 'kysely';
import type { RetryPolicy } from './delivery/retry-policies.ts';

/** Where a delivery goes, read when each attempt is made (a changed URL applies at once). */
export interface DeliveryTarget {
  readonly url: string;
  /** The signing secret, unsealed. */
  readonly secret: string;
  readonly active: boolean;
}

/**
 * A kind of target the engine delivers to (organization webhooks; mail webhooks), with its policy and its bookkeeping of successes and failures in a row.
 */
export interface TargetKind {
  readonly kind: string;
  readonly policy: RetryPolicy;
  find(id: number): Promise<DeliveryTarget | null>;
  recordSuccess(id: number, at: Date, status: number): Promise<void>;
  /**
   * Answers the failures in a row after this one; `error` is why it failed (`HTTP 500`,
   * `forbidden_address: …`), kept on the target for its readers.
   */
  recordFailure(id: number, at: Date, status: number | null, error: string): Promise<number>;
  /** Turns the target off (its waiting deliveries are stopped by the engine). */
  disable(id: number, at: Date): Promise<void>;
}

/** A delivery to enqueue: the body sent to one target for one event. */
export interface QueuedDelivery {
  readonly kind: string;
  readonly targetId: number;
  readonly eventId: number;
  readonly eventName: string;
  readonly body: string;
}

/**
 * The one delivery engine as another module uses it (mail webhooks): its own kind of target, and
 * deliveries enqueued in the transaction that records their events.
 */
export interface Deliveries {
  registerTarget(kind: TargetKind): void;
  /** Inside `trx` when given: a delivery exists exactly when its event does. */
  enqueue(rows: readonly QueuedDelivery[], trx?: Transaction<unknown>): Promise<void>;
}
