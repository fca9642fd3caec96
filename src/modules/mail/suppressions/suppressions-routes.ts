import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import { NoContent } from '../../../kernel/http/view-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { RelayParams } from '../relays/relays-schemas.ts';
import { ListSuppressionsQuery, SuppressionPageResponse, SuppressionParams } from './suppressions-schemas.ts';
import type { SuppressionsService } from './suppressions-service.ts';

/** The suppression list (base /api/v1/client/smtp-relay/{service_id}/suppressions). */
export function registerSuppressionRoutes(app: ModuleApp, service: SuppressionsService): void {
  app.get(
    '/client/smtp-relay/:service_id/suppressions',
    {
      schema: {
        summary: 'Addresses the relay no longer sends to, newest first',
        params: RelayParams,
        querystring: ListSuppressionsQuery,
        response: { 200: SuppressionPageResponse, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) =>
      service.list(await request.owner(), request.params.service_id, request.query.page, request.query.limit),
  );

  app.delete(
    '/client/smtp-relay/:service_id/suppressions/:address',
    {
      schema: {
        summary: 'Send to an address again',
        params: SuppressionParams,
        response: { 204: NoContent, ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      await service.remove(await request.owner(), request.params.service_id, request.params.address);
      return reply.code(204).send();
    },
  );
}
