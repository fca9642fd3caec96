import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { BucketParams } from '../buckets/buckets-schemas.ts';
import {
  DeleteObjectsBody,
  ObjectDeletionResponse,
  ObjectListQuery,
  ObjectPageResponse,
} from './objects-schemas.ts';
import type { ObjectsService } from './objects-service.ts';

/** Objects (base /api/v1/client/object-storage/{service_id}/buckets/{bucket_id}/objects), with an access token. */
export function registerObjectRoutes(app: ModuleApp, service: ObjectsService): void {
  app.get(
    '/:service_id/buckets/:bucket_id/objects',
    {
      schema: {
        summary: "A page of a bucket's objects: folders first (unless flat), next_token for the next page",
        params: BucketParams,
        querystring: ObjectListQuery,
        response: { 200: ObjectPageResponse, ...errorResponses(401, 404, 409, 422, 429, 503) },
      },
    },
    async (request) =>
      service.list(await request.owner(), request.params.service_id, request.params.bucket_id, request.query),
  );

  app.delete(
    '/:service_id/buckets/:bucket_id/objects',
    {
      schema: {
        summary: 'Delete objects by key (a missing key counts as deleted); failures are listed per key',
        params: BucketParams,
        body: DeleteObjectsBody,
        response: {
          200: ObjectDeletionResponse,
          ...errorResponses(401, 403, 404, 409, 413, 415, 422, 429, 503),
        },
      },
    },
    async (request) =>
      service.delete(
        await request.owner(),
        request.params.service_id,
        request.params.bucket_id,
        request.body.keys,
      ),
  );
}
