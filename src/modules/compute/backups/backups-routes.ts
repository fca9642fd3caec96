import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { InstanceParams, InstanceResponse } from '../instances/instances-schemas.ts';
import { vpsBackupBudget, vpsBackupRestoreBudget } from './backups-budget.ts';
import {
  BackupParams,
  BackupResponse,
  BackupsResponse,
  CreateBackupBody,
  DeletedBackupResponse,
} from './backups-schemas.ts';
import type { BackupsService } from './backups-service.ts';

/** /orgs/{org_slug}/vps/{uuid}/backups: members list; owner and admin back up, delete, restore. */
export function registerBackupRoutes(app: ModuleApp, service: BackupsService): void {
  app.get(
    '/:org_slug/vps/:uuid/backups',
    {
      config: { auth: 'org:member' },
      schema: {
        summary: 'The instance’s backups, oldest first (one running for 6 hours is failed)',
        params: InstanceParams,
        response: { 200: BackupsResponse },
      },
    },
    async (request) => service.list(request.principal.orgId!, request.params.uuid),
  );
  app.post(
    '/:org_slug/vps/:uuid/backups',
    {
      config: { auth: 'org:admin', budget: vpsBackupBudget, audit: 'compute.backup.create' },
      schema: {
        summary:
          'Starts a backup (mode snapshot|suspend|stop, default snapshot; compress zstd|gzip|lzo|none, default zstd); 403 past the plan’s max_backups (default 2)',
        params: InstanceParams,
        body: CreateBackupBody,
        response: { 200: BackupResponse, ...errorResponses(409, 415, 502, 503) },
      },
    },
    async (request) => service.create(request.principal.orgId!, request.params.uuid, request.body),
  );
  app.delete(
    '/:org_slug/vps/:uuid/backups/:backup_id',
    {
      config: { auth: 'org:admin', audit: 'compute.backup.delete' },
      schema: {
        params: BackupParams,
        response: { 200: DeletedBackupResponse, ...errorResponses(409, 502, 503) },
      },
    },
    async (request) =>
      service.delete(request.principal.orgId!, request.params.uuid, request.params.backup_id),
  );
  app.post(
    '/:org_slug/vps/:uuid/backups/:backup_id/restore',
    {
      config: { auth: 'org:admin', budget: vpsBackupRestoreBudget, audit: 'compute.backup.restore' },
      schema: {
        summary: 'Replaces the instance’s disk with the backup: the instance is restoring, then stopped',
        params: BackupParams,
        response: { 200: InstanceResponse, ...errorResponses(409, 502, 503) },
      },
    },
    async (request) =>
      service.restore(request.principal.orgId!, request.params.uuid, request.params.backup_id),
  );
}
