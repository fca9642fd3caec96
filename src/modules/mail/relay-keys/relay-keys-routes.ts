import { Type } from 'typebox';
import { NoContent } from '../../../kernel/http/view-schemas.ts';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { RelayParams } from '../relays/relays-schemas.ts';
import {
  CreateRelayKeyBody,
  NewRelayKeyResponse,
  RelayKeyParams,
  RelayKeyResponse,
} from './relay-keys-schemas.ts';
import type { RelayKeysService } from './relay-keys-service.ts';

/** Relay keys (base /api/v1/client/smtp-relay/{service_id}/keys), with an access token. */
export function registerRelayKeyRoutes(app: ModuleApp, service: RelayKeysService): void {
  app.get(
    '/client/smtp-relay/:service_id/keys',
    {
      schema: {
        summary: "A relay's keys, oldest first (never the key itself)",
        params: RelayParams,
        response: { 200: Type.Array(RelayKeyResponse), ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => service.list(await request.owner(), request.params.service_id),
  );

  app.post(
    '/client/smtp-relay/:service_id/keys',
    {
      schema: {
        summary: 'Create a relay key (raw_key is shown in this answer only)',
        params: RelayParams,
        body: CreateRelayKeyBody,
        response: { 201: NewRelayKeyResponse, ...errorResponses(401, 403, 404, 413, 415, 422, 429) },
      },
    },
    async (request, reply) => {
      const key = await service.create(await request.owner(), request.params.service_id, request.body.label);
      return reply.code(201).send(key);
    },
  );

  app.delete(
    '/client/smtp-relay/:service_id/keys/:key_id',
    {
      schema: {
        summary: 'Delete a relay key: it stops working at once',
        params: RelayKeyParams,
        response: { 204: NoContent, ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      await service.delete(await request.owner(), request.params.service_id, request.params.key_id);
      return reply.code(204).send();
    },
  );
}
