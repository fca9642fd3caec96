import { Type } from 'typebox';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { OrgWebhooksService } from './org-webhooks-service.ts';

const Slug = Type.Object({ org_slug: Type.String({ minLength: 1, maxLength: 64 }) });
const Params = Type.Object({
  org_slug: Type.String({ minLength: 1, maxLength: 64 }),
  webhook_id: Type.Integer({ minimum: 1 }),
});
const Url = Type.String({ minLength: 1, maxLength: 2048, description: 'https://, at most 1024 characters' });
const Events = Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { maxItems: 100 });
const CreateBody = Type.Object({ url: Url, events: Events }, { additionalProperties: false });
const UpdateBody = Type.Object(
  { url: Type.Optional(Url), events: Type.Optional(Events), is_active: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
const WebhookView = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  is_active: Type.Boolean(),
  failure_count: Type.Integer(),
  last_triggered_at: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
});

/** /orgs/{org_slug}/webhooks (owner or admin; seed "Organization webhooks"). The secret is never returned. */
export function registerOrgWebhookRoutes(app: ModuleApp, service: OrgWebhooksService): void {
  const config = { auth: 'org:admin' } as const;
  app.get(
    '/:org_slug/webhooks',
    {
      schema: {
        description: 'The organization’s webhooks, ordered by id (oldest first).',
        params: Slug,
        response: { 200: Type.Array(WebhookView) },
      },
      config,
    },
    async (request) => service.list(request.principal.orgId!),
  );
  app.post(
    '/:org_slug/webhooks',
    { schema: { params: Slug, body: CreateBody, response: { 201: WebhookView } }, config },
    async (request, reply) =>
      reply.code(201).send(await service.create(request.principal.orgId!, request.body)),
  );
  app.patch(
    '/:org_slug/webhooks/:webhook_id',
    { schema: { params: Params, body: UpdateBody, response: { 200: WebhookView } }, config },
    async (request) => service.update(request.principal.orgId!, request.params.webhook_id, request.body),
  );
  app.delete(
    '/:org_slug/webhooks/:webhook_id',
    {
      schema: {
        params: Params,
        response: { 200: Type.Object({ id: Type.Integer(), deleted: Type.Boolean() }) },
      },
      config,
    },
    async (request) => service.delete(request.principal.orgId!, request.params.webhook_id),
  );
}
