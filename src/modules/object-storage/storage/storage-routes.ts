import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import {
  RegionsResponse,
  StorageParams,
  StorageServiceResponse,
  StorageServicesResponse,
} from './storage-schemas.ts';
import type { StorageService } from './storage-service.ts';

/** Regions and services (base /api/v1/client/object-storage), with an access token. */
export function registerStorageRoutes(app: ModuleApp, service: StorageService): void {
  app.get(
    '/regions',
    {
      schema: {
        summary: 'Regions where buckets can be made, with their S3 endpoints, in the configured order',
        response: { 200: RegionsResponse, ...errorResponses(401, 429) },
      },
    },
    async (request) => {
      await request.owner();
      return service.regions();
    },
  );

  app.get(
    '/services',
    {
      schema: {
        summary: "The caller's object storage services, newest first",
        response: { 200: StorageServicesResponse, ...errorResponses(401, 429) },
      },
    },
    async (request) => service.list(await request.owner()),
  );

  app.get(
    '/:service_id',
    {
      schema: {
        summary:
          'A storage service: endpoints (in the regions’ order), limits, what it stores (read at most a minute ago)',
        params: StorageParams,
        response: { 200: StorageServiceResponse, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => service.get(await request.owner(), request.params.service_id),
  );
}
