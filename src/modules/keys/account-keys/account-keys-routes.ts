import { Type } from 'typebox';
import { describes } from '../../../kernel/http/view-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { AccountKeysService, AccountKeyView } from './account-keys-service.ts';

const KeyResponse = describes<AccountKeyView>()(
  Type.Object({
    id: Type.Integer(),
    label: Type.String(),
    permissions: Type.Array(Type.String()),
    ip_whitelist: Type.Array(Type.String()),
    is_active: Type.Boolean(),
    last_used_at: Type.Null(),
    created_at: Type.String(),
  }),
);
const CreateBody = Type.Object(
  {
    label: Type.String({ minLength: 1, maxLength: 100 }),
    permissions: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 50 })),
    ip_whitelist: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 100 })),
  },
  { additionalProperties: false },
);

/**
 * /auth/me/api-keys (docs/keys-and-limits.md, "Account API keys"): create (raw_key once), list
 * newest first, revoke.
 */
export function registerAccountKeyRoutes(app: ModuleApp, service: AccountKeysService): void {
  app.post(
    '/auth/me/api-keys',
    {
      schema: {
        body: CreateBody,
        response: { 201: Type.Object({ ...KeyResponse.properties, raw_key: Type.String() }) },
      },
      config: { audit: 'keys.account_key.create' },
    },
    async (request, reply) =>
      reply.code(201).send(await service.create(request.principal.userId!, request.body)),
  );

  app.get(
    '/auth/me/api-keys',
    {
      schema: {
        description: 'The caller’s keys, newest first (no raw_key).',
        querystring: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 500, default: 200 }) }),
        response: { 200: Type.Array(KeyResponse) },
      },
    },
    async (request) => service.list(request.principal.userId!, request.query.limit),
  );

  app.delete(
    '/auth/me/api-keys/:key_id',
    {
      schema: {
        params: Type.Object({ key_id: Type.Integer({ minimum: 1 }) }),
        response: { 200: Type.Object({ message: Type.String() }) },
      },
      config: { audit: 'keys.account_key.delete' },
    },
    async (request) => service.delete(request.principal.userId!, request.params.key_id),
  );
}
