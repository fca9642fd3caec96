-- Cloud compute (docs/compute.md): an instance is a VM on a Proxmox VE node, made when a vps
-- service is provisioned and addressed by its uuid; its backups are vzdump archives on the
-- cluster's backup storage, tracked here from the task that makes them to their deletion.
CREATE TABLE compute_instances (
  uuid          text PRIMARY KEY,
  service_id    bigint NOT NULL UNIQUE,
  user_id       bigint NOT NULL,
  org_id        bigint,
  name          text NOT NULL,
  hostname      text NOT NULL,
  -- installing | active | suspended | rebuilding | restoring | rescue | failed | terminated
  state         text NOT NULL,
  failure       text,
  node          text NOT NULL,
  vmid          integer NOT NULL,
  template_id   integer NOT NULL,
  template_name text NOT NULL,
  vcpus         integer NOT NULL,
  memory_mb     integer NOT NULL,
  disk_gb       integer NOT NULL,
  traffic_tb    integer,
  max_snapshots integer NOT NULL,
  max_backups   integer NOT NULL,
  location      text,
  -- The public IPv4 address taken from the location's pool; released (null) once terminated.
  ipv4          text UNIQUE,
  ipv4_prefix   integer,
  ipv4_gateway  text,
  ssh_keys      text NOT NULL DEFAULT '',
  created_at    timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL
);
CREATE INDEX compute_instances_org ON compute_instances (org_id);
CREATE UNIQUE INDEX compute_instances_vm ON compute_instances (node, vmid) WHERE state <> 'terminated';

CREATE TABLE compute_backups (
  id            bigserial PRIMARY KEY,
  instance_uuid text NOT NULL REFERENCES compute_instances (uuid) ON DELETE CASCADE,
  node          text NOT NULL,
  volid         text,
  upid          text,
  note          text NOT NULL DEFAULT '',
  -- snapshot | suspend | stop
  mode          text NOT NULL,
  -- zstd | gzip | lzo | none
  compress      text NOT NULL,
  size_bytes    bigint,
  -- running | completed | failed
  status        text NOT NULL,
  created_at    timestamptz NOT NULL,
  finished_at   timestamptz
);
CREATE INDEX compute_backups_instance ON compute_backups (instance_uuid);
