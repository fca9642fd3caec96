import { Type } from 'typebox';
import { describes } from '../../../kernel/http/view-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { OrgKeysService, OrgKeyView } from './org-keys-service.ts';

const KeyResponse = describes<OrgKeyView>()(
  Type.Object({
    id: Type.Integer(),
    label: Type.String(),
    permissions: Type.Object({ scopes: Type.Array(Type.String()) }),
    rate_limit_per_hour: Type.Integer(),
    ip_whitelist: Type.Array(Type.String()),
    is_active: Type.Boolean(),
    created_at: Type.String(),
  }),
);
const Slug = Type.Object({ org_slug: Type.String({ minLength: 1, maxLength: 64 }) });
const CreateBody = Type.Object(
  {
    label: Type.String({ minLength: 1, maxLength: 100 }),
    permissions: Type.Optional(
      Type.Object(
        { scopes: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 100 })) },
        { additionalProperties: false },
      ),
    ),
    rate_limit_per_hour: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000 })),
    ip_whitelist: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 100 })),
  },
  { additionalProperties: false },
);

/** /orgs/{org_slug}/api-keys (owner or admin): list (revoked included), create (raw_key once), revoke. */
export function registerOrgKeyRoutes(app: ModuleApp, service: OrgKeysService): void {
  app.get(
    '/orgs/:org_slug/api-keys',
    {
      schema: {
        description: 'Every key, newest first, revoked ones included.',
        params: Slug,
        response: { 200: Type.Array(KeyResponse) },
      },
      config: { auth: 'org:admin' },
    },
    async (request) => service.list(request.principal.orgId!),
  );

  app.post(
    '/orgs/:org_slug/api-keys',
    {
      schema: {
        params: Slug,
        body: CreateBody,
        response: { 201: Type.Object({ ...KeyResponse.properties, raw_key: Type.String() }) },
      },
      config: { auth: 'org:admin', audit: 'keys.org_key.create' },
    },
    async (request, reply) =>
      reply.code(201).send(await service.create(request.principal.orgId!, request.body)),
  );

  app.delete(
    '/orgs/:org_slug/api-keys/:key_id',
    {
      schema: {
        params: Type.Object({
          org_slug: Type.String({ minLength: 1, maxLength: 64 }),
          key_id: Type.Integer({ minimum: 1 }),
        }),
        response: { 200: Type.Object({ id: Type.Integer(), is_active: Type.Boolean() }) },
      },
      config: { auth: 'org:admin', audit: 'keys.org_key.revoke' },
    },
    async (request) => service.revoke(request.principal.orgId!, request.params.key_id),
  );
}
