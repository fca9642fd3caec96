import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { RelayKeyCheck } from '../relay-keys/relay-key-check.ts';
import { MAX_BODY_BYTES, SendBody } from './send-body.ts';
import { LimitsResponse, SendResponse } from './send-schemas.ts';
import type { SendService } from './send-service.ts';

/**
 * Mail sending (docs/mail.md, "Sending"): POST /mail/send and GET /mail/send/limits, with a relay
 * key in X-Api-Key.
 */
export function registerSendRoutes(app: ModuleApp, service: SendService, keys: RelayKeyCheck): void {
  app.post(
    '/mail/send',
    {
      bodyLimit: MAX_BODY_BYTES,
      // The message's events are its record; an audit entry per message would only repeat them.
      config: { auth: 'relay', audit: false },
      schema: {
        summary: 'Send a message (202: queued; suppressed recipients are left out and listed)',
        body: SendBody,
        response: { 202: SendResponse, ...errorResponses(401, 403, 413, 415, 422, 429) },
      },
    },
    async (request, reply) => reply.code(202).send(await service.send(keys.relayOf(request), request.body)),
  );

  app.get(
    '/mail/send/limits',
    {
      config: { auth: 'relay' },
      schema: {
        summary: "The relay's sending limits and what it has sent in the last minute and today (UTC)",
        response: { 200: LimitsResponse, ...errorResponses(401, 403, 429) },
      },
    },
    async (request) => service.limits(keys.relayOf(request)),
  );
}
