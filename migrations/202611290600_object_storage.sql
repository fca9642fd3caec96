-- Object storage (docs/object-storage.md): a storage service is a tenant (`svc<id>`) of a Ceph
-- RADOS Gateway. The gateway holds the data, the users and their keys; these tables hold what the
-- API answers from without asking it: the service's plan limits, its buckets and their regions,
-- its keys (secrets sealed) and the hourly meter's readings.
CREATE TABLE object_storage_services (
  service_id          bigint PRIMARY KEY,
  user_id             bigint NOT NULL,
  org_id              bigint,
  -- The gateway tenant: `svc<id>`; the seed's namespace.
  tenant              text NOT NULL UNIQUE,
  -- The home region (a location code): where buckets go when no location_id is given.
  region_code         text NOT NULL,
  quota_bytes         bigint,
  max_buckets         integer NOT NULL,
  presign_max_seconds integer NOT NULL,
  grace_days          integer NOT NULL,
  overage_per_gb_month numeric(12, 4),
  -- active | suspended | terminated (data kept until purge_after) | purged
  status              text NOT NULL DEFAULT 'active',
  purge_after         timestamptz,
  created_at          timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE object_storage_buckets (
  id          bigserial PRIMARY KEY,
  service_id  bigint NOT NULL REFERENCES object_storage_services (service_id) ON DELETE CASCADE,
  name        text NOT NULL,
  region_code text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  deleted_at  timestamptz
);
CREATE UNIQUE INDEX object_storage_buckets_name_idx ON object_storage_buckets (service_id, name)
  WHERE deleted_at IS NULL;

CREATE TABLE object_storage_keys (
  id          bigserial PRIMARY KEY,
  service_id  bigint NOT NULL REFERENCES object_storage_services (service_id) ON DELETE CASCADE,
  label       text NOT NULL,
  -- The gateway user within the tenant holding the key (`owner`, or `k<id>` of a bucket key) and,
  -- for a read-only key of the whole service, the owner's subuser that holds it.
  rgw_user    text NOT NULL,
  subuser     text,
  access_key  text NOT NULL UNIQUE,
  -- The secret, sealed (context object-storage-key:<access_key>).
  secret_sealed bytea NOT NULL,
  bucket_id   bigint REFERENCES object_storage_buckets (id) ON DELETE SET NULL,
  -- read | readwrite
  access      text NOT NULL,
  is_default  boolean NOT NULL DEFAULT false,
  created_at  timestamptz NOT NULL DEFAULT now(),
  revoked_at  timestamptz
);
CREATE INDEX object_storage_keys_service_idx ON object_storage_keys (service_id);

-- One row per service per hour (the meter is idempotent per hour).
CREATE TABLE object_storage_usage (
  service_id bigint NOT NULL REFERENCES object_storage_services (service_id) ON DELETE CASCADE,
  hour       timestamptz NOT NULL,
  bytes      bigint NOT NULL,
  objects    bigint NOT NULL,
  bytes_in   bigint NOT NULL,
  bytes_out  bigint NOT NULL,
  requests   bigint NOT NULL,
  PRIMARY KEY (service_id, hour)
);
