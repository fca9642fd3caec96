import { Type } from 'typebox';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import { NoContent } from '../../../kernel/http/view-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { RelayParams } from '../relays/relays-schemas.ts';
import {
  CreateMailWebhookBody,
  MailWebhookParams,
  MailWebhookResponse,
  NewMailWebhookResponse,
} from './mail-webhooks-schemas.ts';
import type { MailWebhooksService } from './mail-webhooks-service.ts';

/** Mail webhooks (docs/mail.md, "Mail webhooks"; base /api/v1/client/smtp-relay/{service_id}/webhooks). */
export function registerMailWebhookRoutes(app: ModuleApp, service: MailWebhooksService): void {
  app.get(
    '/client/smtp-relay/:service_id/webhooks',
    {
      schema: {
        summary: "A relay's mail webhooks, oldest first (never the secret)",
        params: RelayParams,
        response: { 200: Type.Array(MailWebhookResponse), ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => service.list(await request.owner(), request.params.service_id),
  );

  app.post(
    '/client/smtp-relay/:service_id/webhooks',
    {
      schema: {
        summary: 'Create a mail webhook (the signing secret is in this answer only)',
        description:
          'The URL is https://, and its host is not, and does not resolve now to, a private or reserved address (else 422 naming body.url).',
        params: RelayParams,
        body: CreateMailWebhookBody,
        response: { 201: NewMailWebhookResponse, ...errorResponses(401, 403, 404, 413, 415, 422, 429) },
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
        params: MailWebhookParams,
        response: { 204: NoContent, ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      await service.delete(await request.owner(), request.params.service_id, request.params.webhook_id);
      return reply.code(204).send();
    },
  );
}
