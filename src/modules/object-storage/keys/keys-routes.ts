import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import {
  CreateKeyBody,
  KeyListResponse,
  KeyRevokedResponse,
  NewKeyResponse,
  StorageKeyParams,
  StorageParams,
} from './keys-schemas.ts';
import type { KeysService } from './keys-service.ts';

/** S3 keys (base /api/v1/client/object-storage/{service_id}/keys), with an access token. */
export function registerKeyRoutes(app: ModuleApp, service: KeysService): void {
  app.get(
    '/:service_id/keys',
    {
      schema: {
        summary: "A storage service's S3 keys in use, oldest first (never a secret)",
        params: StorageParams,
        response: { 200: KeyListResponse, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => service.list(await request.owner(), request.params.service_id),
  );

  app.post(
    '/:service_id/keys',
    {
      schema: {
        summary:
          'Issue an S3 key, optionally read-only or scoped to one bucket (secret_key shown in this answer only)',
        params: StorageParams,
        body: CreateKeyBody,
        response: { 201: NewKeyResponse, ...errorResponses(401, 403, 404, 409, 413, 415, 422, 429, 503) },
      },
    },
    async (request, reply) => {
      const key = await service.create(await request.owner(), request.params.service_id, request.body);
      return reply.code(201).send(key);
    },
  );

  app.delete(
    '/:service_id/keys/:key_id',
    {
      schema: {
        summary: 'Revoke an S3 key: the gateway refuses it at once (the default key cannot be revoked)',
        params: StorageKeyParams,
        response: { 200: KeyRevokedResponse, ...errorResponses(401, 403, 404, 409, 422, 429, 503) },
      },
    },
    async (request) =>
      service.revoke(await request.owner(), request.params.service_id, request.params.key_id),
  );
}
