import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import {
  BucketDeletedResponse,
  BucketListResponse,
  BucketParams,
  BucketResponse,
  CreateBucketBody,
  DeleteBucketQuery,
  StorageParams,
} from './buckets-schemas.ts';
import type { BucketsService } from './buckets-service.ts';

/** Buckets (base /api/v1/client/object-storage/{service_id}/buckets), with an access token. */
export function registerBucketRoutes(app: ModuleApp, service: BucketsService): void {
  app.get(
    '/:service_id/buckets',
    {
      schema: {
        summary: "A storage service's buckets, oldest first, with what each holds",
        params: StorageParams,
        response: { 200: BucketListResponse, ...errorResponses(401, 404, 422, 429, 503) },
      },
    },
    async (request) => service.list(await request.owner(), request.params.service_id),
  );

  app.post(
    '/:service_id/buckets',
    {
      schema: {
        summary: "Create a bucket, in the service's home region or at another region's location",
        params: StorageParams,
        body: CreateBucketBody,
        response: { 201: BucketResponse, ...errorResponses(401, 403, 404, 409, 413, 415, 422, 429, 503) },
      },
    },
    async (request, reply) => {
      const bucket = await service.create(await request.owner(), request.params.service_id, request.body);
      return reply.code(201).send(bucket);
    },
  );

  app.get(
    '/:service_id/buckets/:bucket_id',
    {
      schema: {
        summary: 'A bucket, with what it holds',
        params: BucketParams,
        response: { 200: BucketResponse, ...errorResponses(401, 404, 422, 429, 503) },
      },
    },
    async (request) =>
      service.get(await request.owner(), request.params.service_id, request.params.bucket_id),
  );

  app.delete(
    '/:service_id/buckets/:bucket_id',
    {
      schema: {
        summary: 'Delete a bucket: refused while it holds objects, unless force (then they all go)',
        params: BucketParams,
        querystring: DeleteBucketQuery,
        response: { 200: BucketDeletedResponse, ...errorResponses(401, 403, 404, 409, 422, 429, 503) },
      },
    },
    async (request) =>
      service.delete(
        await request.owner(),
        request.params.service_id,
        request.params.bucket_id,
        request.query.force,
      ),
  );
}
