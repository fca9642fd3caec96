import { Type } from 'typebox';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import { NoContent } from '../../../kernel/http/view-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { MailWebhooksService } from './mail-webhooks-service.ts';

const Relay = Type.Object({ service_id: Type.Integer({ minimum: 1 }) });
const WebhookView = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  failure_count: Type.Integer(),
  last_status: Type.Union([Type.Integer(), Type.Null()]),
  last_delivered_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
});

/** Seed "Mail webhooks" (base /api/v1/client/smtp-relay/{service_id}/webhooks). */
export function registerMailWebhookRoutes(app: ModuleApp, service: MailWebhooksService): void {
  app.get(
    '/client/smtp-relay/:service_id/webhooks',
    {
      schema: {
        summary: "A relay's mail webhooks, oldest first (never the secret)",
        params: Relay,
        response: { 200: Type.Array(WebhookView), ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => service.list(await request.owner(), request.params.service_id),
  );

  app.post(
    '/client/smtp-relay/:service_id/webhooks',
    {
      schema: {
        summary: 'Create a mail webhook (the signing secret is in this answer only)',
        params: Relay,
        body: Type.Object(
          {
            url: Type.String({ minLength: 8, maxLength: 1024 }),
            events: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 50 })),
          },
          { additionalProperties: false },
        ),
        response: {
          201: Type.Object({ ...WebhookView.properties, secret: Type.String() }),
          ...errorResponses(401, 403, 404, 413, 415, 422, 429),
        },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await service.create(await request.owner(), request.params.service_id, request.body)),
  );

  app.delete(
    '/client/smtp-relay/:service_id/webhooks/:webhook_id',
    {
      schema: {
        summary: 'Delete a mail webhook: its waiting events are dropped',
        params: Type.Object({ ...Relay.properties, webhook_id: Type.Integer({ minimum: 1 }) }),
        response: { 204: NoContent, ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      await service.delete(await request.owner(), request.params.service_id, request.params.webhook_id);
      return reply.code(204).send();
    },
  );
}
