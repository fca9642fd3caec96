-- Game servers (docs/game-servers.md): a server is made when a game_server service is provisioned,
-- with its directory under GAME_SERVERS_ROOT. Its users (other accounts with permissions), the
-- addon files found in it (software records) and the jobs that install, update or roll them back.
CREATE TABLE game_servers_servers (
  uuid                text PRIMARY KEY,
  service_id          bigint NOT NULL UNIQUE,
  user_id             bigint NOT NULL,
  org_id              bigint,
  name                text NOT NULL,
  -- The catalogue specialization (minecraft-paper), its version and build when it has builds.
  specialization_slug text NOT NULL,
  version_id          text,
  build_number        integer,
  game_version        text,
  -- paper | fabric | forge | none
  loader              text NOT NULL,
  node                text NOT NULL,
  -- active | suspended | terminated
  status              text NOT NULL DEFAULT 'active',
  created_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX game_servers_servers_user ON game_servers_servers (user_id);
CREATE INDEX game_servers_servers_org ON game_servers_servers (org_id);

CREATE TABLE game_servers_users (
  server_uuid text NOT NULL REFERENCES game_servers_servers (uuid) ON DELETE CASCADE,
  user_id     bigint NOT NULL,
  email       text NOT NULL,
  -- A JSON list of permission names (software.read, software.install).
  permissions text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (server_uuid, user_id)
);
CREATE INDEX game_servers_users_user ON game_servers_users (user_id);

CREATE TABLE game_servers_software (
  record_uuid          text PRIMARY KEY,
  server_uuid          text NOT NULL REFERENCES game_servers_servers (uuid) ON DELETE CASCADE,
  -- Relative to the server's directory: plugins/LuckPerms.jar
  install_path         text NOT NULL,
  display_name         text NOT NULL,
  -- plugin | mod | datapack
  kind                 text NOT NULL,
  -- modrinth | curseforge | unknown
  source_name          text NOT NULL,
  project_id           text,
  current_version      text,
  current_version_name text,
  -- installed | pending_restart
  status               text NOT NULL,
  -- What the file on disk was when last hashed (a rescan hashes only changed files).
  file_size            bigint,
  file_mtime_ms        bigint,
  sha1                 text,
  -- A build staged under .staged/, applied at the next start.
  staged_path          text,
  staged_filename      text,
  staged_version       text,
  staged_version_name  text,
  -- The file replaced at the last start, kept as <name>.previous for one rollback.
  previous_path        text,
  previous_version     text,
  previous_version_name text,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now(),
  UNIQUE (server_uuid, install_path)
);

CREATE TABLE game_servers_jobs (
  job_id       text PRIMARY KEY,
  server_uuid  text NOT NULL REFERENCES game_servers_servers (uuid) ON DELETE CASCADE,
  record_uuid  text NOT NULL,
  -- install | update | rollback
  action       text NOT NULL,
  source_name  text,
  project_id   text,
  version_id   text,
  from_version text,
  to_version   text,
  -- queued | running | completed | failed
  status       text NOT NULL,
  error        text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  finished_at  timestamptz
);
CREATE INDEX game_servers_jobs_server ON game_servers_jobs (server_uuid);
