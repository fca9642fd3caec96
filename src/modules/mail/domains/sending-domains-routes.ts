import { Type } from 'typebox';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import { NoContent } from '../../../kernel/http/view-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { SendingDomainsService } from './sending-domains-service.ts';

const Relay = Type.Object({ service_id: Type.Integer({ minimum: 1 }) });
const DomainParams = Type.Object({ ...Relay.properties, domain: Type.String({ maxLength: 253 }) });
const DomainView = Type.Object({
  domain: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('verified')]),
  dkim_selector: Type.String(),
  hosted_here: Type.Boolean(),
  records: Type.Array(
    Type.Object({
      purpose: Type.String(),
      name: Type.String(),
      type: Type.String(),
      value: Type.String(),
      verified: Type.Boolean(),
    }),
  ),
  verified_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  checked_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
});

/** Sending domains (base /api/v1/client/smtp-relay/{service_id}/domains). */
export function registerSendingDomainRoutes(app: ModuleApp, service: SendingDomainsService): void {
  app.get(
    '/client/smtp-relay/:service_id/domains',
    {
      schema: {
        summary: "A relay's sending domains, ordered by name, with the records each needs",
        params: Relay,
        response: { 200: Type.Array(DomainView), ...errorResponses(401, 404, 422, 429) },
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
        params: Relay,
        body: Type.Object({ domain: Type.String({ maxLength: 253 }) }, { additionalProperties: false }),
        response: { 201: DomainView, ...errorResponses(401, 403, 404, 409, 413, 415, 422, 429) },
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
        params: DomainParams,
        response: { 200: DomainView, ...errorResponses(401, 403, 404, 422, 429) },
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
        params: DomainParams,
        response: { 204: NoContent, ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      await service.remove(await request.owner(), request.params.service_id, request.params.domain);
      return reply.code(204).send();
    },
  );
}
