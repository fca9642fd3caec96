/** The compute module's tables as Kysely sees them (migrations/202611291200_compute.sql). */
import type { Generated } from 'kysely';

/**
 * What the platform holds of an instance; `active` instances show their hypervisor's live state
 * (running, stopped, paused), the others this state itself.
 */
export type InstanceState =
  'installing' | 'active' | 'suspended' | 'rebuilding' | 'restoring' | 'rescue' | 'failed' | 'terminated';

export interface InstanceRow {
  uuid: string;
  service_id: number;
  user_id: number;
  org_id: number | null;
  name: string;
  hostname: string;
  state: InstanceState;
  /** Why the last install, rebuild or restore failed (state `failed`). */
  failure: string | null;
  node: string;
  vmid: number;
  template_id: number;
  template_name: string;
  vcpus: number;
  memory_mb: number;
  disk_gb: number;
  traffic_tb: number | null;
  max_snapshots: number;
  max_backups: number;
  location: string | null;
  ipv4: string | null;
  ipv4_prefix: number | null;
  ipv4_gateway: string | null;
  /** The OpenSSH public keys set through cloud-init, one per line. */
  ssh_keys: string;
  created_at: Date;
  updated_at: Date;
}

export type BackupStatus = 'running' | 'completed' | 'failed';

export interface BackupRow {
  id: Generated<number>;
  instance_uuid: string;
  node: string;
  /** The archive's volume id once the vzdump task has made it. */
  volid: string | null;
  upid: string | null;
  note: string;
  mode: 'snapshot' | 'suspend' | 'stop';
  compress: 'zstd' | 'gzip' | 'lzo' | 'none';
  size_bytes: number | null;
  status: BackupStatus;
  created_at: Date;
  finished_at: Date | null;
}

export interface ComputeTables {
  compute_instances: InstanceRow;
  compute_backups: BackupRow;
}
