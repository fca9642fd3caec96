-- Mail relay: a relay per smtp_relay service, its keys, sending domains (DKIM keys sealed), the
-- outgoing queue, the delivery events (docs/mail.md, "Events"), the suppression list and
-- the mail webhooks. Every table hangs off the relay, which stays after the service ends so that
-- late reports (DSNs, complaints) still find their message.
CREATE TABLE mail_relays (
  service_id     bigint PRIMARY KEY,
  user_id        bigint NOT NULL,
  org_id         bigint,
  per_minute     integer NOT NULL,
  per_day        integer NOT NULL,
  max_recipients integer NOT NULL,
  -- active | suspended | terminated
  status         text NOT NULL DEFAULT 'active',
  created_at     timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE mail_relay_keys (
  id           bigserial PRIMARY KEY,
  service_id   bigint NOT NULL REFERENCES mail_relays (service_id) ON DELETE CASCADE,
  label        text NOT NULL,
  -- The prefix and first characters of the key: finds the row; the key itself is only hashed.
  lookup       text NOT NULL UNIQUE,
  key_hash     text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
CREATE INDEX mail_relay_keys_service_idx ON mail_relay_keys (service_id);

CREATE TABLE mail_domains (
  id              bigserial PRIMARY KEY,
  service_id      bigint NOT NULL REFERENCES mail_relays (service_id) ON DELETE CASCADE,
  domain          text NOT NULL,
  selector        text NOT NULL,
  -- PKCS#8 PEM of the 2048-bit RSA key, sealed (context mail-dkim:<domain id>).
  dkim_private_key bytea NOT NULL,
  -- base64 of the DER SubjectPublicKeyInfo: the TXT record's p= value.
  dkim_public_key text NOT NULL,
  -- The hosted zone the records were published in as managed records, when there was one.
  zone_id         bigint,
  -- pending | verified
  status          text NOT NULL DEFAULT 'pending',
  verified_at     timestamptz,
  checked_at      timestamptz,
  check_result    jsonb,
  created_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (service_id, domain)
);

CREATE TABLE mail_messages (
  id            bigserial PRIMARY KEY,
  service_id    bigint NOT NULL REFERENCES mail_relays (service_id) ON DELETE CASCADE,
  queue_id      text NOT NULL UNIQUE,
  message_id    text NOT NULL,
  from_addr     text NOT NULL,
  recipients    text[] NOT NULL,
  -- The signed message, kept until it is handed to the MTA.
  raw           bytea,
  -- queued | sent | failed
  status        text NOT NULL,
  -- When it may be handed off: now, or when a sending limit's window allows. Counts toward the
  -- limits from then on.
  send_at       timestamptz NOT NULL,
  attempts      integer NOT NULL DEFAULT 0,
  locked_until  timestamptz,
  handed_off_at timestamptz,
  mta_response  text,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mail_messages_due_idx ON mail_messages (send_at) WHERE status = 'queued';
CREATE INDEX mail_messages_window_idx ON mail_messages (service_id, send_at);

CREATE TABLE mail_events (
  id          bigserial PRIMARY KEY,
  service_id  bigint NOT NULL REFERENCES mail_relays (service_id) ON DELETE CASCADE,
  message_ref bigint,
  event       text NOT NULL,
  type        text NOT NULL,
  queue_id    text,
  message_id  text,
  from_addr   text,
  to_addr     text,
  response    text,
  occurred_at timestamptz NOT NULL
);
CREATE INDEX mail_events_service_idx ON mail_events (service_id, id);
CREATE INDEX mail_events_message_idx ON mail_events (message_ref);

CREATE TABLE mail_suppressions (
  service_id bigint NOT NULL REFERENCES mail_relays (service_id) ON DELETE CASCADE,
  address    text NOT NULL,
  -- bounced | complaint | unsubscribed
  reason     text NOT NULL,
  event_id   bigint,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (service_id, address)
);

CREATE TABLE mail_webhooks (
  id                bigserial PRIMARY KEY,
  service_id        bigint NOT NULL REFERENCES mail_relays (service_id) ON DELETE CASCADE,
  url               text NOT NULL,
  events            text[] NOT NULL,
  -- Sealed signing secret (context mail-webhook:<service id>).
  secret            bytea NOT NULL,
  enabled           boolean NOT NULL DEFAULT true,
  failure_count     integer NOT NULL DEFAULT 0,
  last_status       integer,
  last_delivered_at timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mail_webhooks_service_idx ON mail_webhooks (service_id);
