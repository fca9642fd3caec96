import { Type } from 'typebox';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { StaffAccess } from '../access/staff-access.ts';
import type { ActivityService } from './activity-service.ts';

const STAFF = { auth: 'staff' } as const;
const OrgParams = Type.Object({ org_slug: Type.String({ minLength: 1, maxLength: 64 }) });

const ActivityQuerySchema = Type.Object({
  customer_id: Type.Optional(Type.Integer({ minimum: 1 })),
  /** An order of hosting is a service: its id. */
  service_id: Type.Optional(Type.Integer({ minimum: 1 })),
  server_uuid: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  actor_id: Type.Optional(Type.Integer({ minimum: 1 })),
  action: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  resource_type: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  since: Type.Optional(Type.String({ format: 'date' })),
  until: Type.Optional(Type.String({ format: 'date' })),
  q: Type.Optional(Type.String({ maxLength: 128 })),
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  offset: Type.Integer({ minimum: 0, default: 0 }),
});

const ActivityEntry = Type.Object({
  id: Type.Integer(),
  actor_user_id: Type.Union([Type.Integer(), Type.Null()]),
  actor_realm: Type.String(),
  action: Type.String(),
  resource_type: Type.String(),
  resource_id: Type.Union([Type.String(), Type.Null()]),
  customer_id: Type.Union([Type.Integer(), Type.Null()]),
  service_id: Type.Union([Type.Integer(), Type.Null()]),
  server_uuid: Type.Union([Type.String(), Type.Null()]),
  ip: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
});

/** The console's activity routes (base /api/v1/orgs/{org_slug}/staff/activity): the organization's audit log. */
export function registerActivityRoutes(app: ModuleApp, access: StaffAccess, activity: ActivityService): void {
  app.get(
    '/:org_slug/staff/activity',
    {
      schema: {
        summary: "The organization's audit log, newest first, as the caller's console role shows it",
        description:
          'Admins read all of it; tier 3 and billing name a customer, order (service_id) or server, or ask ' +
          'for their own actions (actor_id = themselves); tiers 1 and 2 read only their own actions.',
        params: OrgParams,
        querystring: ActivityQuerySchema,
        response: {
          200: Type.Object({
            items: Type.Array(ActivityEntry),
            limit: Type.Integer(),
            offset: Type.Integer(),
            has_more: Type.Boolean(),
          }),
          ...errorResponses(401, 403, 404, 422, 429),
        },
      },
      config: STAFF,
    },
    async (request) => activity.list(await access.caller(request), request.query),
  );

  app.get(
    '/:org_slug/staff/activity/actions',
    {
      schema: {
        summary:
          'The action names that occurred in the audit log, sorted by name (below tier 3: the caller’s own)',
        params: OrgParams,
        response: {
          200: Type.Object({ actions: Type.Array(Type.String()) }),
          ...errorResponses(401, 403, 404, 429),
        },
      },
      config: STAFF,
    },
    async (request) => ({ actions: await activity.actions(await access.caller(request)) }),
  );
}
