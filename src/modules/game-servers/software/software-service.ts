import { randomUUID } from 'node:crypto';
import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import type { OutboundClient } from '../../../kernel/outbound/guarded-client.ts';
import {
  jobNotFound,
  jobRunning,
  noAddonFolder,
  notUpdatable,
  nothingToRollBack,
  recordNotFound,
  sourceUnknown,
  versionNotFound,
} from '../game-servers-errors.ts';
import type { GameServersContext } from '../game-servers-context.ts';
import type { GameServerSources } from '../game-servers-interfaces.ts';
import type { ServerAccess } from '../servers/server-access.ts';
import { addonFolderOf } from '../servers/server-layout.ts';
import type { Server } from '../servers/servers-repository.ts';
import {
  SourceUnavailable,
  type SourceName,
  type SourceVersion,
  type VersionSource,
} from '../sources/version-source.ts';
import { bestBuild, chooseUpdate } from '../updates/choose-update.ts';
import { loadersFor } from '../updates/server-loaders.ts';
import { serverBudgetKey, softwareBudget, powerBudget } from './software-budgets.ts';
import { JOB_STALE_MS } from './software-download.ts';
import { SoftwareJobRunner } from './software-job-runner.ts';
import type { SoftwareRecord, SoftwareRepository } from './software-repository.ts';
import type { SoftwareScan } from './software-scan.ts';
import { applyStaged, removeFiles, stagePrevious } from './software-staging.ts';
import { jobView, recordView, type JobView, type SoftwareRecordView } from './software-view.ts';

/** A server's addon files: listed (after a rescan), installed, updated, rolled back, deleted. */
export class SoftwareService {
  private readonly runner: SoftwareJobRunner;

  constructor(
    private readonly ctx: GameServersContext,
    private readonly access: ServerAccess,
    private readonly software: SoftwareRepository,
    private readonly scan: SoftwareScan,
    private readonly sources: () => GameServerSources,
    outbound: OutboundClient,
  ) {
    this.runner = new SoftwareJobRunner(ctx, software, outbound);
  }

  /** Waits for the jobs running in this process. */
  drain(): Promise<void> {
    return this.runner.drain();
  }

  async list(scope: OwnerScope, uuid: string): Promise<{ items: SoftwareRecordView[] }> {
    const { server } = await this.access.require(scope, uuid, 'software.read');
    await this.scan.rescan(server, this.sources());
    return { items: (await this.software.records(uuid)).map(recordView) };
  }

  async job(scope: OwnerScope, uuid: string, jobId: string): Promise<JobView> {
    await this.access.require(scope, uuid, 'software.read');
    const job = await this.software.job(uuid, jobId);
    if (job === null) throw jobNotFound();
    return jobView(job);
  }

  /** Installs a project's build (the given one, or the newest that fits the server) as a job. */
  async install(
    scope: OwnerScope,
    uuid: string,
    body: { source: SourceName; project_id: string; version_id?: string },
  ): Promise<JobView> {
    const { server } = await this.chargeInstall(scope, uuid);
    if (addonFolderOf(server.loader) === null) throw noAddonFolder();
    const version = await this.buildOf(server, body.source, body.project_id, {
      versionId: body.version_id,
      kind: addonFolderOf(server.loader)!.kind,
      currentId: null,
    });
    await this.scan.rescan(server, this.sources());
    const same = (await this.software.records(uuid)).find(
      (r) => r.source_name === body.source && r.project_id === body.project_id,
    );
    return this.startJob(server, same ?? null, same === undefined ? 'install' : 'update', version);
  }

  async update(scope: OwnerScope, uuid: string, recordUuid: string, versionId?: string): Promise<JobView> {
    const { server } = await this.chargeInstall(scope, uuid);
    const record = await this.recordOf(uuid, recordUuid);
    if (record.source_name === 'unknown' || record.project_id === null) throw notUpdatable();
    const version = await this.buildOf(server, record.source_name, record.project_id, {
      versionId,
      kind: record.kind,
      currentId: record.current_version,
    });
    return this.startJob(server, record, 'update', version);
  }

  /** Stages the file the last start replaced; it loads at the next start. */
  async rollback(scope: OwnerScope, uuid: string, recordUuid: string): Promise<JobView> {
    const { server } = await this.chargeInstall(scope, uuid);
    const record = await this.recordOf(uuid, recordUuid);
    if (record.previous_path === null) throw nothingToRollBack();
    if (await this.busy(recordUuid)) throw jobRunning();
    const patch = await stagePrevious(this.ctx.settings.root, server, record);
    const jobId = randomUUID();
    const now = new Date(this.ctx.clock.now());
    await this.ctx.transaction(async ({ trx }) => {
      const repo = this.software.withTx(trx);
      await repo.update(recordUuid, patch, now);
      await repo.insertJob({
        ...this.jobRow(server, record, 'rollback', jobId),
        to_version: record.previous_version,
        status: 'completed',
        finished_at: now,
      });
    });
    return jobView((await this.software.job(uuid, jobId))!);
  }

  async remove(scope: OwnerScope, uuid: string, recordUuid: string): Promise<void> {
    const { server } = await this.chargeInstall(scope, uuid);
    const record = await this.recordOf(uuid, recordUuid);
    if (await this.busy(recordUuid)) throw jobRunning();
    await removeFiles(this.ctx.settings.root, server, record);
    await this.ctx.transaction(async ({ trx }) => this.software.withTx(trx).delete(recordUuid));
  }

  /** Start or restart: every staged build is put in place; no game process is run here. */
  async power(scope: OwnerScope, uuid: string, action: 'start' | 'restart') {
    const { server } = await this.access.require(scope, uuid, 'software.install');
    await this.ctx.budgets.charge(powerBudget, serverBudgetKey(uuid));
    const applied: { record_uuid: string; install_path: string; version: string | null }[] = [];
    const now = new Date(this.ctx.clock.now());
    for (const r of await this.software.records(uuid)) {
      if (r.staged_path === null) continue;
      const patch = await applyStaged(this.ctx.settings.root, server, r);
      await this.ctx.transaction(async ({ trx }) =>
        this.software.withTx(trx).update(r.record_uuid, patch, now),
      );
      applied.push({
        record_uuid: r.record_uuid,
        install_path: patch.install_path as string,
        version: r.staged_version,
      });
    }
    return { action, applied, process: 'not_managed' as const };
  }

  /** Whether a job on the record is still under way (one older than a download may last was cut off). */
  private busy(recordUuid: string): Promise<boolean> {
    return this.software.busy(recordUuid, new Date(this.ctx.clock.now() - JOB_STALE_MS));
  }

  private async chargeInstall(scope: OwnerScope, uuid: string) {
    const grant = await this.access.require(scope, uuid, 'software.install');
    await this.ctx.budgets.charge(softwareBudget, serverBudgetKey(uuid));
    return grant;
  }

  private async recordOf(uuid: string, recordUuid: string): Promise<SoftwareRecord> {
    const record = await this.software.record(uuid, recordUuid);
    if (record === null) throw recordNotFound();
    return record;
  }

  /**
   * The given build of a project, else the one the update check offers: of the builds that fit the
   * server's loader (and those it runs) and game version, the steadiest newer than the installed
   * one (a newer release before a newer beta), or for an install the steadiest newest.
   */
  private async buildOf(
    server: Server,
    sourceName: SourceName,
    projectId: string,
    wanted: { versionId: string | undefined; kind: string; currentId: string | null },
  ): Promise<SourceVersion> {
    const source: VersionSource | undefined = this.sources()[sourceName];
    if (source === undefined || !source.enabled()) throw sourceUnknown(sourceName);
    try {
      const found =
        wanted.versionId !== undefined
          ? await source.version(projectId, wanted.versionId)
          : await this.offeredBuild(server, source, projectId, wanted.kind, wanted.currentId);
      if (found === null) throw versionNotFound();
      return found;
    } catch (error) {
      if (error instanceof SourceUnavailable) throw sourceUnknown(sourceName);
      throw error;
    }
  }

  private async offeredBuild(
    server: Server,
    source: VersionSource,
    projectId: string,
    kind: string,
    currentId: string | null,
  ): Promise<SourceVersion | null> {
    const [candidates, current] = await Promise.all([
      source.versions(projectId, {
        loaders: server.loader === 'none' ? [] : loadersFor(server.loader, kind),
        gameVersions: server.game_version === null ? [] : [server.game_version],
      }),
      currentId === null ? null : source.version(projectId, currentId),
    ]);
    const choice = { includePrerelease: false };
    return current === null ? bestBuild(candidates, choice) : chooseUpdate(current, candidates, choice);
  }

  private jobRow(
    server: Server,
    record: SoftwareRecord | null,
    action: 'install' | 'update' | 'rollback',
    jobId: string,
  ) {
    return {
      job_id: jobId,
      server_uuid: server.uuid,
      record_uuid: record?.record_uuid ?? randomUUID(),
      action,
      source_name: record?.source_name ?? null,
      project_id: record?.project_id ?? null,
      version_id: null,
      from_version: record?.current_version ?? null,
      to_version: null,
      status: 'queued' as const,
      error: null,
      created_at: new Date(this.ctx.clock.now()),
      finished_at: null,
    };
  }

  private async startJob(
    server: Server,
    record: SoftwareRecord | null,
    action: 'install' | 'update',
    version: SourceVersion,
  ): Promise<JobView> {
    if (record !== null && (await this.busy(record.record_uuid))) throw jobRunning();
    const jobId = randomUUID();
    await this.ctx.transaction(async ({ trx, afterCommit }) => {
      await this.software.withTx(trx).insertJob({
        ...this.jobRow(server, record, action, jobId),
        source_name: version.source,
        project_id: version.projectId,
        version_id: version.versionId,
        to_version: version.versionId,
      });
      afterCommit(() => this.runner.start(server, jobId, version));
    });
    return jobView((await this.software.job(server.uuid, jobId))!);
  }
}
