import { Type } from 'typebox';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import {
  CreateOrgWebhookBody,
  DeletedOrgWebhookResponse,
  OrgSlugParams,
  OrgWebhookParams,
  OrgWebhookResponse,
  UpdateOrgWebhookBody,
} from './org-webhooks-schemas.ts';
import type { OrgWebhooksService } from './org-webhooks-service.ts';

/**
 * /orgs/{org_slug}/webhooks (owner or admin; docs/webhooks.md, "Organization webhooks"). The secret
 * is never returned.
 */
export function registerOrgWebhookRoutes(app: ModuleApp, service: OrgWebhooksService): void {
  const config = { auth: 'org:admin' } as const;
  app.get(
    '/:org_slug/webhooks',
    {
      schema: {
        description: 'The organization’s webhooks, ordered by id (oldest first).',
        params: OrgSlugParams,
        response: { 200: Type.Array(OrgWebhookResponse) },
      },
      config,
    },
    async (request) => service.list(request.principal.orgId!),
  );
  app.post(
    '/:org_slug/webhooks',
    {
      schema: {
        description:
          'Creates a webhook. The URL is https://, and its host is not, and does not resolve now to, a private or reserved address (else 422 naming body.url); each delivery checks it again.',
        params: OrgSlugParams,
        body: CreateOrgWebhookBody,
        response: { 201: OrgWebhookResponse },
      },
      config,
    },
    async (request, reply) =>
      reply.code(201).send(await service.create(request.principal.orgId!, request.body)),
  );
  app.patch(
    '/:org_slug/webhooks/:webhook_id',
    {
      schema: {
        description:
          'Changes a webhook; a new URL is judged as at creation. is_active true resumes it with a clean failure count.',
        params: OrgWebhookParams,
        body: UpdateOrgWebhookBody,
        response: { 200: OrgWebhookResponse },
      },
      config,
    },
    async (request) => service.update(request.principal.orgId!, request.params.webhook_id, request.body),
  );
  app.delete(
    '/:org_slug/webhooks/:webhook_id',
    {
      schema: {
        params: OrgWebhookParams,
        response: { 200: DeletedOrgWebhookResponse },
      },
      config,
    },
    async (request) => service.delete(request.principal.orgId!, request.params.webhook_id),
  );
}
