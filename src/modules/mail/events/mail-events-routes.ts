import { Type } from 'typebox';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { RelayParams } from '../relays/relays-schemas.ts';
import { ListMailEventsQuery, MailEventResponse } from './mail-events-schemas.ts';
import type { MailEventsService } from './mail-events-service.ts';

/** A relay's delivery events (GET /api/v1/client/smtp-relay/{service_id}/events). */
export function registerMailEventRoutes(app: ModuleApp, service: MailEventsService): void {
  app.get(
    '/client/smtp-relay/:service_id/events',
    {
      schema: {
        summary: "A relay's delivery events, newest first (filter by queue_id, event)",
        params: RelayParams,
        querystring: ListMailEventsQuery,
        response: { 200: Type.Array(MailEventResponse), ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => service.list(await request.owner(), request.params.service_id, request.query),
  );
}
