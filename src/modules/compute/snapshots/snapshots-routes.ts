import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { InstanceParams } from '../instances/instances-schemas.ts';
import {
  CreateSnapshotBody,
  DeletedSnapshotResponse,
  SnapshotParams,
  SnapshotResponse,
  SnapshotsResponse,
} from './snapshots-schemas.ts';
import type { SnapshotsService } from './snapshots-service.ts';

/** /orgs/{org_slug}/vps/{uuid}/snapshots: members list; owner and admin create, delete, roll back. */
export function registerSnapshotRoutes(app: ModuleApp, service: SnapshotsService): void {
  app.get(
    '/:org_slug/vps/:uuid/snapshots',
    {
      config: { auth: 'org:member' },
      schema: {
        summary: 'The instance’s snapshots, oldest first',
        params: InstanceParams,
        response: { 200: SnapshotsResponse, ...errorResponses(502, 503) },
      },
    },
    async (request) => service.list(request.principal.orgId!, request.params.uuid),
  );
  app.post(
    '/:org_slug/vps/:uuid/snapshots',
    {
      config: { auth: 'org:admin', audit: 'compute.snapshot.create' },
      schema: {
        summary: 'Takes a snapshot (403 past the plan’s max_snapshots, default 3)',
        params: InstanceParams,
        body: CreateSnapshotBody,
        response: { 200: SnapshotResponse, ...errorResponses(409, 415, 502, 503) },
      },
    },
    async (request) => service.create(request.principal.orgId!, request.params.uuid, request.body),
  );
  app.delete(
    '/:org_slug/vps/:uuid/snapshots/:snapshot_id',
    {
      config: { auth: 'org:admin', audit: 'compute.snapshot.delete' },
      schema: {
        params: SnapshotParams,
        response: { 200: DeletedSnapshotResponse, ...errorResponses(409, 502, 503) },
      },
    },
    async (request) =>
      service.delete(request.principal.orgId!, request.params.uuid, request.params.snapshot_id),
  );
  app.post(
    '/:org_slug/vps/:uuid/snapshots/:snapshot_id/rollback',
    {
      config: { auth: 'org:admin', audit: 'compute.snapshot.rollback' },
      schema: {
        summary: 'Rolls the instance back to the snapshot (stopping it first)',
        params: SnapshotParams,
        response: { 200: SnapshotResponse, ...errorResponses(409, 502, 503) },
      },
    },
    async (request) =>
      service.rollback(request.principal.orgId!, request.params.uuid, request.params.snapshot_id),
  );
}
