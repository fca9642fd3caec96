/**
 * The webhooks module's tables as Kysely sees them (migrations/*_webhooks_deliveries.sql):
 * organization webhooks, and the deliveries of the delivery engine (every policy, every target).
 */
export interface WebhookRow {
  id: number;
  org_id: number;
  url: string;
  events: string[];
  /** Sealed signing secret (kernel sealing); no route returns it. */
  secret: Uint8Array;
  is_active: boolean;
  failure_count: number;
  last_triggered_at: Date | null;
  /** Why the latest failed attempt failed, and when (a later success leaves them). */
  last_error: string | null;
  last_error_at: Date | null;
  created_at: Date;
  deleted_at: Date | null;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'gave_up' | 'stopped';

export interface DeliveryRow {
  id: number;
  target_kind: string;
  target_id: number;
  policy: string;
  event_id: number;
  event_name: string;
  /** The exact bytes every attempt sends. */
  body: string;
  attempts: number;
  status: DeliveryStatus;
  next_attempt_at: Date;
  locked_until: Date | null;
  claimed_by: string | null;
  last_error: string | null;
  created_at: Date;
  finished_at: Date | null;
}

export interface WebhooksTables {
  webhooks: WebhookRow;
  webhooks_deliveries: DeliveryRow;
}
