import { Type } from 'typebox';
import { limitOffsetQuery } from '../../../kernel/paging/paging.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { AuditLog } from '../../../kernel/audit/audit-log.ts';
import {
  CreateOrgBody,
  DeleteOrgQuery,
  LiveProductSchema,
  OrganizationViewSchema,
  UpdateOrgBody,
} from './organizations-schemas.ts';
import { OrgSlugParams } from '../shared/org-slug-params.ts';
import type { OrganizationsService } from './organizations-service.ts';

const AuditEntrySchema = Type.Object({
  id: Type.Integer(),
  org_id: Type.Union([Type.Integer(), Type.Null()]),
  actor_user_id: Type.Union([Type.Integer(), Type.Null()]),
  actor_realm: Type.String(),
  action: Type.String(),
  resource_type: Type.String(),
  resource_id: Type.Union([Type.String(), Type.Null()]),
  ip: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
});

/** /orgs: create and list; /orgs/{org_slug}: read, settings, deletion, audit log. */
export function registerOrganizationRoutes(
  app: ModuleApp,
  service: OrganizationsService,
  audit: AuditLog,
): void {
  app.post(
    '',
    {
      schema: { body: CreateOrgBody, response: { 201: OrganizationViewSchema } },
      config: { audit: 'org.create' },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await service.create(request.principal.userId!, request.body.slug, request.body.name)),
  );

  app.get(
    '',
    {
      schema: {
        description: 'The caller’s organizations, ordered by name, then id.',
        response: { 200: Type.Array(OrganizationViewSchema) },
      },
    },
    async (request) => service.listOfUser(request.principal.userId!),
  );

  app.get(
    '/:org_slug',
    {
      schema: { params: OrgSlugParams, response: { 200: OrganizationViewSchema } },
      config: { auth: 'org:member' },
    },
    async (request) => service.get(request.principal),
  );

  app.patch(
    '/:org_slug',
    {
      schema: { params: OrgSlugParams, body: UpdateOrgBody, response: { 200: OrganizationViewSchema } },
      config: { auth: 'org:admin', audit: 'org.update' },
    },
    async (request) => service.update(request.principal, request.body),
  );

  app.delete(
    '/:org_slug',
    {
      schema: {
        params: OrgSlugParams,
        querystring: DeleteOrgQuery,
        response: { 200: OrganizationViewSchema },
      },
      config: { auth: 'org:member', audit: 'org.delete' },
    },
    async (request) => service.delete(request.principal, request.query.confirm),
  );

  const Settings = Type.Object({ commerce_enabled: Type.Boolean() });
  app.get(
    '/:org_slug/settings',
    { schema: { params: OrgSlugParams, response: { 200: Settings } }, config: { auth: 'org:admin' } },
    async (request) => service.settings(request.principal),
  );
  app.patch(
    '/:org_slug/settings',
    {
      schema: {
        params: OrgSlugParams,
        body: Type.Object(
          { commerce_enabled: Type.Optional(Type.Boolean()) },
          { additionalProperties: false },
        ),
        response: { 200: Settings },
      },
      config: { auth: 'org:admin', audit: 'org.settings.update', optionalBody: true },
    },
    async (request) => service.updateSettings(request.principal, request.body),
  );

  app.get(
    '/:org_slug/deletion',
    {
      schema: {
        description:
          'What deleting the organization would remove: its live products, grouped by kind in a fixed order.',
        params: OrgSlugParams,
        response: { 200: Type.Object({ products: Type.Array(LiveProductSchema) }) },
      },
      config: { auth: 'org:admin' },
    },
    async (request) => service.deletion(request.principal),
  );

  app.get(
    '/:org_slug/audit-log',
    {
      schema: {
        description: 'The organization’s audit log, newest first (ties by id, newest first).',
        params: OrgSlugParams,
        querystring: limitOffsetQuery(50, 200),
        response: { 200: Type.Array(AuditEntrySchema) },
      },
      config: { auth: 'org:admin' },
    },
    async (request) => audit.list(request.principal.orgId!, request.query.limit, request.query.offset),
  );
}
