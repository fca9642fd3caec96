/**
 * The rescan behind every software list: the files in a server's addon folder (`plugins/`,
 * `mods/`) and `world/datapacks/` become records (one per install path). A file new or changed
 * since the last scan is hashed and looked up at the sources by its digests; one no source knows
 * is listed with `source_name` unknown. Records whose file is gone are dropped, unless a build is
 * staged for them.
 */
import { randomUUID } from 'node:crypto';
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { GameServersContext } from '../game-servers-context.ts';
import type { GameServerSources } from '../game-servers-interfaces.ts';
import type { SoftwareKind } from '../game-servers-tables.ts';
import { addonFolderOf, DATAPACK_FOLDER, serverDir } from '../servers/server-layout.ts';
import type { Server } from '../servers/servers-repository.ts';
import type { FileDigests, SourceVersion, VersionSource } from '../sources/version-source.ts';
import { fileDigests } from '../sources/file-digests.ts';
import type { SoftwareRecord, SoftwareRepository } from './software-repository.ts';

interface FoundFile {
  readonly installPath: string;
  readonly kind: SoftwareKind;
  readonly size: number;
  readonly mtimeMs: number;
}

/** The addon files of a server on disk: jars in the addon folder, zips and jars in world/datapacks. */
async function filesOf(server: Server, root: string): Promise<FoundFile[]> {
  const dir = serverDir(root, server.uuid);
  const addons = addonFolderOf(server.loader);
  const folders: { folder: string; kind: SoftwareKind; ext: RegExp }[] = [
    ...(addons !== null ? [{ ...addons, ext: /\.jar$/i }] : []),
    { folder: DATAPACK_FOLDER, kind: 'datapack', ext: /\.(zip|jar)$/i },
  ];
  const found: FoundFile[] = [];
  for (const { folder, kind, ext } of folders) {
    const names = await readdir(path.join(dir, folder)).catch(() => [] as string[]);
    for (const name of names.sort()) {
      if (!ext.test(name)) continue;
      // lstat: a symbolic link (to anywhere) is not an addon file.
      const s = await lstat(path.join(dir, folder, name)).catch(() => null);
      if (s === null || !s.isFile()) continue;
      found.push({ installPath: `${folder}/${name}`, kind, size: s.size, mtimeMs: Math.floor(s.mtimeMs) });
    }
  }
  return found;
}

/**
 * What the enabled sources say the files are; a source that fails says nothing, and `complete` is
 * false (a file none identified may still be known to it).
 */
async function identify(
  ctx: GameServersContext,
  sources: GameServerSources,
  files: readonly FileDigests[],
): Promise<{ known: Map<FileDigests, SourceVersion>; complete: boolean }> {
  const known = new Map<FileDigests, SourceVersion>();
  let complete = true;
  const enabled = [sources.modrinth, sources.curseforge].filter(
    (s): s is VersionSource => s !== undefined && s.enabled(),
  );
  for (const source of enabled) {
    const left = files.filter((f) => !known.has(f));
    if (left.length === 0) break;
    try {
      for (const [f, v] of await source.identify(left)) known.set(f, v);
    } catch (error) {
      ctx.log.warn({ err: error, source: source.name }, 'a version source did not identify files');
      complete = false;
    }
  }
  return { known, complete };
}

export class SoftwareScan {
  constructor(
    private readonly ctx: GameServersContext,
    private readonly software: SoftwareRepository,
  ) {}

  async rescan(server: Server, sources: GameServerSources): Promise<void> {
    const files = await filesOf(server, this.ctx.settings.root);
    const existing = new Map((await this.software.records(server.uuid)).map((r) => [r.install_path, r]));
    const changed: { file: FoundFile; digests: FileDigests; record: SoftwareRecord | undefined }[] = [];
    for (const file of files) {
      const record = existing.get(file.installPath);
      if (record?.sha1 != null && record.file_size === file.size && record.file_mtime_ms === file.mtimeMs)
        continue;
      const bytes = await readFile(
        path.join(serverDir(this.ctx.settings.root, server.uuid), file.installPath),
      );
      changed.push({ file, digests: fileDigests(bytes), record });
    }
    const { known: found, complete } = await identify(
      this.ctx,
      sources,
      changed.map((c) => c.digests),
    );
    const now = new Date(this.ctx.clock.now());
    const onDisk = new Set(files.map((f) => f.installPath));
    await this.ctx.transaction(async ({ trx }) => {
      const repo = this.software.withTx(trx);
      for (const { file, digests, record } of changed) {
        const v = found.get(digests);
        // Not identified while a source failed: not settled (no sha1), so the next scan asks again.
        const settled = v !== undefined || complete;
        const seen = {
          file_size: file.size,
          file_mtime_ms: file.mtimeMs,
          sha1: settled ? digests.sha1 : null,
        };
        // A file a job put in place (sha1 not yet known) keeps what the job verified it to be.
        const keep = v === undefined && record !== undefined && record.sha1 === null;
        const identity = keep ? {} : identityOf(file, v);
        if (record !== undefined) await repo.update(record.record_uuid, { ...seen, ...identity }, now);
        else
          await repo.insert({
            ...emptyRecord(server.uuid, file),
            ...seen,
            ...identityOf(file, v),
          });
      }
      for (const r of existing.values())
        if (!onDisk.has(r.install_path) && r.staged_path === null) await repo.delete(r.record_uuid);
    });
  }
}

/** What a source says a file is; unknown to every source: its file name, never updated. */
function identityOf(file: FoundFile, v: SourceVersion | undefined) {
  if (v === undefined)
    return {
      display_name: path.basename(file.installPath),
      source_name: 'unknown' as const,
      project_id: null,
      current_version: null,
      current_version_name: null,
    };
  return {
    display_name: v.projectName ?? v.name,
    source_name: v.source,
    project_id: v.projectId,
    current_version: v.versionId,
    current_version_name: v.name,
  };
}

function emptyRecord(serverUuid: string, file: FoundFile) {
  return {
    record_uuid: randomUUID(),
    server_uuid: serverUuid,
    install_path: file.installPath,
    kind: file.kind,
    status: 'installed' as const,
    staged_path: null,
    staged_filename: null,
    staged_version: null,
    staged_version_name: null,
    previous_path: null,
    previous_version: null,
    previous_version_name: null,
  };
}
