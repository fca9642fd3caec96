/**
 * Staged builds and the files they replace: a start puts every staged build in place in one step,
 * keeping the file it replaces as `<name>.previous` (one rollback); a rollback stages that file
 * back; a delete removes the file, its staged build and its previous file.
 */
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Updateable } from 'kysely';
import type { SoftwareRow } from '../game-servers-tables.ts';
import { serverDir, STAGED_FOLDER } from '../servers/server-layout.ts';
import type { Server } from '../servers/servers-repository.ts';
import type { SoftwareRecord } from './software-repository.ts';

const exists = (p: string) =>
  stat(p).then(
    () => true,
    () => false,
  );

/** Where a record's builds are staged, relative to the server's directory. */
export const stagedDirOf = (recordUuid: string): string => `${STAGED_FOLDER}/${recordUuid}`;

/**
 * Puts a record's staged build in place: the current file (if any) becomes `<name>.previous`
 * (an older previous file goes), the staged file takes its folder. Answers the record's new columns.
 */
export async function applyStaged(
  root: string,
  server: Server,
  r: SoftwareRecord,
): Promise<Updateable<SoftwareRow>> {
  const dir = serverDir(root, server.uuid);
  const folder = path.posix.dirname(r.install_path);
  const target = `${folder}/${r.staged_filename!}`;
  let previous: string | null = null;
  if (r.previous_path !== null) await rm(path.join(dir, r.previous_path), { force: true });
  if (await exists(path.join(dir, r.install_path))) {
    previous = `${r.install_path}.previous`;
    await rename(path.join(dir, r.install_path), path.join(dir, previous));
  }
  await mkdir(path.join(dir, folder), { recursive: true });
  await rename(path.join(dir, r.staged_path!), path.join(dir, target));
  await rm(path.join(dir, stagedDirOf(r.record_uuid)), { recursive: true, force: true });
  return {
    install_path: target,
    current_version: r.staged_version,
    current_version_name: r.staged_version_name,
    status: 'installed',
    staged_path: null,
    staged_filename: null,
    staged_version: null,
    staged_version_name: null,
    previous_path: previous,
    previous_version: previous !== null ? r.current_version : null,
    previous_version_name: previous !== null ? r.current_version_name : null,
    // Hashed again at the next scan, which keeps what the job verified.
    sha1: null,
    file_size: null,
    file_mtime_ms: null,
  };
}

/** Stages a copy of the record's previous file, under its original name. */
export async function stagePrevious(
  root: string,
  server: Server,
  r: SoftwareRecord,
): Promise<Updateable<SoftwareRow>> {
  const dir = serverDir(root, server.uuid);
  const name = path.posix.basename(r.previous_path!).replace(/\.previous$/, '');
  const staged = `${stagedDirOf(r.record_uuid)}/${name}`;
  await rm(path.join(dir, stagedDirOf(r.record_uuid)), { recursive: true, force: true });
  await mkdir(path.join(dir, stagedDirOf(r.record_uuid)), { recursive: true });
  await copyFile(path.join(dir, r.previous_path!), path.join(dir, staged));
  return {
    status: 'pending_restart',
    staged_path: staged,
    staged_filename: name,
    staged_version: r.previous_version,
    staged_version_name: r.previous_version_name,
  };
}

/** Removes a record's file, its staged build and its previous file. */
export async function removeFiles(root: string, server: Server, r: SoftwareRecord): Promise<void> {
  const dir = serverDir(root, server.uuid);
  await rm(path.join(dir, r.install_path), { force: true });
  if (r.previous_path !== null) await rm(path.join(dir, r.previous_path), { force: true });
  await rm(path.join(dir, stagedDirOf(r.record_uuid)), { recursive: true, force: true });
}
