import type { RetryPolicy } from './retry-policies.ts';

/** Where a delivery goes, read when each attempt is made (a changed URL applies at once). */
export interface DeliveryTarget {
  readonly url: string;
  /** The signing secret, unsealed. */
  readonly secret: string;
  readonly active: boolean;
}

/**
 * A kind of target the engine delivers to (organization webhooks; mail webhooks with the mail
 * issue), with its policy and its bookkeeping of successes and failures in a row.
 */
export interface TargetKind {
  readonly kind: string;
  readonly policy: RetryPolicy;
  find(id: number): Promise<DeliveryTarget | null>;
  recordSuccess(id: number, at: Date, status: number): Promise<void>;
  /** Answers the failures in a row after this one. */
  recordFailure(id: number, at: Date, status: number | null): Promise<number>;
  /** Turns the target off (its waiting deliveries are stopped by the engine). */
  disable(id: number, at: Date): Promise<void>;
}
