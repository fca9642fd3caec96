import { Type } from 'typebox';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import { NoContent } from '../../../kernel/http/view-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { RelayParams } from '../relays/relays-schemas.ts';
import {
  AddSendingDomainBody,
  SendingDomainParams,
  SendingDomainResponse,
} from './sending-domains-schemas.ts';
import type { SendingDomainsService } from './sending-domains-service.ts';

/** Sending domains (base /api/v1/client/smtp-relay/{service_id}/domains). */
export function registerSendingDomainRoutes(app: ModuleApp, service: SendingDomainsService): void {
  app.get(
    '/client/smtp-relay/:service_id/domains',
    {
      schema: {
        summary: "A relay's sending domains, ordered by name, with the records each needs",
        params: RelayParams,
        response: { 200: Type.Array(SendingDomainResponse), ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => service.list(await request.owner(), request.params.service_id),
  );

  app.post(
    '/client/smtp-relay/:service_id/domains',
    {
      schema: {
        summary:
          'Add a sending domain: a DKIM key, and the DNS records to publish (published here when the zone is)',
        params: RelayParams,
        body: AddSendingDomainBody,
        response: { 201: SendingDomainResponse, ...errorResponses(401, 403, 404, 409, 413, 415, 422, 429) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await service.add(await request.owner(), request.params.service_id, request.body.domain)),
  );

  app.post(
    '/client/smtp-relay/:service_id/domains/:domain/verify',
    {
      config: { optionalBody: true },
      schema: {
        summary: "Look the domain's records up now; verified when the DKIM key and SPF are found",
        params: SendingDomainParams,
        response: { 200: SendingDomainResponse, ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request) =>
      service.verify(await request.owner(), request.params.service_id, request.params.domain),
  );

  app.delete(
    '/client/smtp-relay/:service_id/domains/:domain',
    {
      schema: {
        summary: 'Remove a sending domain and the records published for it',
        params: SendingDomainParams,
        response: { 204: NoContent, ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      await service.remove(await request.owner(), request.params.service_id, request.params.domain);
      return reply.code(204).send();
    },
  );
}
