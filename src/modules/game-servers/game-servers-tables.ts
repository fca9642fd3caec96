/** The game servers module's tables as Kysely sees them (migrations/202611291100_game_servers.sql). */
import type { Generated } from 'kysely';

export type ServerStatus = 'active' | 'suspended' | 'terminated';
export type Loader = 'paper' | 'fabric' | 'forge' | 'none';
export type SoftwareKind = 'plugin' | 'mod' | 'datapack';
export type SoftwareSourceName = 'modrinth' | 'curseforge' | 'unknown';
export type SoftwareStatus = 'installed' | 'pending_restart';
export type JobAction = 'install' | 'update' | 'rollback';
export type JobStatus = 'queued' | 'running' | 'completed' | 'failed';

export interface ServerRow {
  uuid: string;
  service_id: number;
  user_id: number;
  org_id: number | null;
  name: string;
  specialization_slug: string;
  version_id: string | null;
  build_number: number | null;
  game_version: string | null;
  loader: Loader;
  node: string;
  status: ServerStatus;
  created_at: Generated<Date>;
}

export interface ServerUserRow {
  server_uuid: string;
  user_id: number;
  email: string;
  /** A JSON list of permission names. */
  permissions: string;
  created_at: Generated<Date>;
}

export interface SoftwareRow {
  record_uuid: string;
  server_uuid: string;
  install_path: string;
  display_name: string;
  kind: SoftwareKind;
  source_name: SoftwareSourceName;
  project_id: string | null;
  current_version: string | null;
  current_version_name: string | null;
  status: SoftwareStatus;
  file_size: number | null;
  file_mtime_ms: number | null;
  sha1: string | null;
  staged_path: string | null;
  staged_filename: string | null;
  staged_version: string | null;
  staged_version_name: string | null;
  previous_path: string | null;
  previous_version: string | null;
  previous_version_name: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface JobRow {
  job_id: string;
  server_uuid: string;
  record_uuid: string;
  action: JobAction;
  source_name: string | null;
  project_id: string | null;
  version_id: string | null;
  from_version: string | null;
  to_version: string | null;
  status: JobStatus;
  error: string | null;
  created_at: Generated<Date>;
  finished_at: Date | null;
}

export interface GameServersTables {
  game_servers_servers: ServerRow;
  game_servers_users: ServerUserRow;
  game_servers_software: SoftwareRow;
  game_servers_jobs: JobRow;
}
