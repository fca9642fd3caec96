/** The mail module's tables as Kysely sees them (migrations/*_mail.sql). */
export type RelayStatus = 'active' | 'suspended' | 'terminated';

export interface RelayRow {
  service_id: number;
  user_id: number;
  org_id: number | null;
  per_minute: number;
  per_day: number;
  max_recipients: number;
  status: RelayStatus;
  created_at: Date;
}

export interface RelayKeyRow {
  id: number;
  service_id: number;
  label: string;
  lookup: string;
  key_hash: string;
  created_at: Date;
  last_used_at: Date | null;
}

export type DomainStatus = 'pending' | 'verified';

export interface DomainRow {
  id: number;
  service_id: number;
  domain: string;
  selector: string;
  dkim_private_key: Uint8Array;
  dkim_public_key: string;
  zone_id: number | null;
  status: DomainStatus;
  verified_at: Date | null;
  checked_at: Date | null;
  check_result: unknown;
  /** Our SPF include was put into the holder's record (or the record made) when it was added. */
  spf_part: boolean;
  created_at: Date;
}

export type MessageStatus = 'queued' | 'sent' | 'failed';

export interface MessageRow {
  id: number;
  service_id: number;
  queue_id: string;
  message_id: string;
  from_addr: string;
  recipients: string[];
  raw: Uint8Array | null;
  status: MessageStatus;
  send_at: Date;
  attempts: number;
  locked_until: Date | null;
  handed_off_at: Date | null;
  mta_response: string | null;
  created_at: Date;
}

export interface EventRow {
  id: number;
  service_id: number;
  message_ref: number | null;
  event: string;
  type: string;
  queue_id: string | null;
  message_id: string | null;
  from_addr: string | null;
  to_addr: string | null;
  response: string | null;
  occurred_at: Date;
}

export type SuppressionReason = 'bounced' | 'complaint' | 'unsubscribed';

export interface SuppressionRow {
  service_id: number;
  address: string;
  reason: SuppressionReason;
  event_id: number | null;
  created_at: Date;
}

export interface MailWebhookRow {
  id: number;
  service_id: number;
  url: string;
  events: string[];
  secret: Uint8Array;
  enabled: boolean;
  failure_count: number;
  last_status: number | null;
  last_delivered_at: Date | null;
  /** Why the latest failed attempt failed, and when (a later success leaves them). */
  last_error: string | null;
  last_error_at: Date | null;
  created_at: Date;
}

export interface MailTables {
  mail_relays: RelayRow;
  mail_relay_keys: RelayKeyRow;
  mail_domains: DomainRow;
  mail_messages: MessageRow;
  mail_events: EventRow;
  mail_suppressions: SuppressionRow;
  mail_webhooks: MailWebhookRow;
}
