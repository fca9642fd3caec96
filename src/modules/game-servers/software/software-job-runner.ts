/**
 * Runs an install or update job in this process once it is committed: the build is downloaded
 * and verified (software-download.ts) into `.staged/<record>/`, then the record points at it
 * (`pending_restart`) and the job is completed. A failed job changes no file and no record.
 */
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { OutboundClient } from '../../../kernel/outbound/guarded-client.ts';
import type { GameServersContext } from '../game-servers-context.ts';
import { addonFolderOf, serverDir } from '../servers/server-layout.ts';
import type { Server } from '../servers/servers-repository.ts';
import type { SourceVersion } from '../sources/version-source.ts';
import { downloadVerified } from './software-download.ts';
import type { Job, SoftwareRepository } from './software-repository.ts';
import { stagedDirOf } from './software-staging.ts';

export class SoftwareJobRunner {
  private readonly inflight = new Set<Promise<void>>();

  constructor(
    private readonly ctx: GameServersContext,
    private readonly software: SoftwareRepository,
    private readonly outbound: OutboundClient,
  ) {}

  /** Starts the job without waiting for it (the request that made it answers 202 at once). */
  start(server: Server, jobId: string, version: SourceVersion): void {
    const running = this.run(server, jobId, version).finally(() => this.inflight.delete(running));
    this.inflight.add(running);
  }

  /** Waits for the jobs running in this process (the module stops after them). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.inflight]);
  }

  /** Runs the job to its end; never throws (the job records why it failed). */
  async run(server: Server, jobId: string, version: SourceVersion): Promise<void> {
    const job = await this.software.jobById(jobId).catch(() => null);
    if (job === null) return;
    const dir = serverDir(this.ctx.settings.root, server.uuid);
    const stagedDir = stagedDirOf(job.record_uuid);
    try {
      await this.software.setJob(jobId, { status: 'running' });
      const file = await downloadVerified(
        this.outbound,
        version,
        path.join(dir, `${stagedDir}.incoming`),
        this.ctx.settings.softwareMaxBytes,
      );
      await this.stage(server, job, version, file);
    } catch (error) {
      await rm(path.join(dir, `${stagedDir}.incoming`), { recursive: true, force: true });
      this.ctx.log.warn({ err: error, job_id: jobId, server: server.uuid }, 'software job failed');
      await this.software
        .setJob(jobId, {
          status: 'failed',
          error: error instanceof Error ? error.message : String(error),
          finished_at: new Date(this.ctx.clock.now()),
        })
        .catch((e: unknown) =>
          this.ctx.log.error({ err: e, job_id: jobId }, 'software job not marked failed'),
        );
    }
  }

  /** The verified file becomes the record's staged build (a new record for a new install). */
  private async stage(server: Server, job: Job, version: SourceVersion, incoming: string): Promise<void> {
    const dir = serverDir(this.ctx.settings.root, server.uuid);
    const stagedDir = stagedDirOf(job.record_uuid);
    const name = path.basename(incoming);
    await rm(path.join(dir, stagedDir), { recursive: true, force: true });
    await rename(path.dirname(incoming), path.join(dir, stagedDir));
    const now = new Date(this.ctx.clock.now());
    const staged = {
      status: 'pending_restart' as const,
      staged_path: `${stagedDir}/${name}`,
      staged_filename: name,
      staged_version: version.versionId,
      staged_version_name: version.name,
    };
    const folder = addonFolderOf(server.loader)!;
    await this.ctx.transaction(async ({ trx }) => {
      const repo = this.software.withTx(trx);
      const record =
        (await repo.record(server.uuid, job.record_uuid)) ??
        (await repo.recordAt(server.uuid, `${folder.folder}/${name}`));
      if (record !== null) await repo.update(record.record_uuid, staged, now);
      else
        await repo.insert({
          record_uuid: job.record_uuid,
          server_uuid: server.uuid,
          install_path: `${folder.folder}/${name}`,
          display_name: version.projectName ?? version.name,
          kind: folder.kind,
          source_name: version.source,
          project_id: version.projectId,
          current_version: null,
          current_version_name: null,
          file_size: null,
          file_mtime_ms: null,
          sha1: null,
          previous_path: null,
          previous_version: null,
          previous_version_name: null,
          ...staged,
        });
      await repo.setJob(job.job_id, { status: 'completed', finished_at: now });
    });
  }
}
