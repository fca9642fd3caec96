import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { UsageParams, UsageQuery, UsageResponse } from './usage-schemas.ts';
import type { UsageService } from './usage-service.ts';

/** Usage (base /api/v1/client/object-storage/{service_id}/usage), with an access token. */
export function registerUsageRoutes(app: ModuleApp, service: UsageService): void {
  app.get(
    '/:service_id/usage',
    {
      schema: {
        summary: "A storage service's hourly usage readings between from and to, oldest first",
        params: UsageParams,
        querystring: UsageQuery,
        response: { 200: UsageResponse, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => service.usage(await request.owner(), request.params.service_id, request.query),
  );
}
