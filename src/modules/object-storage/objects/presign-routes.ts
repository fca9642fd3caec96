import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { PresignBody, PresignParams, PresignResponse } from './presign-schemas.ts';
import type { PresignService } from './presign-service.ts';

/** Presigned object URLs (base /api/v1/client/object-storage), with an access token. */
export function registerPresignRoutes(app: ModuleApp, service: PresignService): void {
  app.post(
    '/:service_id/buckets/:bucket_id/objects/presign',
    {
      schema: {
        summary: 'A short-lived URL for one GET, PUT or DELETE of an object, usable without credentials',
        params: PresignParams,
        body: PresignBody,
        response: { 200: PresignResponse, ...errorResponses(401, 403, 404, 409, 413, 415, 422, 429, 503) },
      },
    },
    async (request) =>
      service.presign(
        await request.owner(),
        request.params.service_id,
        request.params.bucket_id,
        request.body,
      ),
  );
}
