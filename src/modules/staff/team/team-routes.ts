import { Type } from 'typebox';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { StaffAccess } from '../access/staff-access.ts';
import { StaffRoleSchema } from '../access/staff-roles.ts';
import type { TeamService } from './team-service.ts';

const STAFF = { auth: 'staff' } as const;
const OrgParams = Type.Object({ org_slug: Type.String({ minLength: 1, maxLength: 64 }) });
const MemberParams = Type.Object({
  org_slug: Type.String({ minLength: 1, maxLength: 64 }),
  member_id: Type.Integer({ minimum: 1 }),
});
const RoleView = Type.Object({
  member_id: Type.Integer(),
  role: StaffRoleSchema,
});
const Email = Type.String({
  minLength: 3,
  maxLength: 254,
  format: 'email',
  pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$',
});
const NewPassword = Type.String({ minLength: 8, maxLength: 128 });
const LinkMode = Type.Union([Type.Literal('same_login'), Type.Literal('separate')]);
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const TeammateView = Type.Object({
  member_id: Type.Integer(),
  email: Type.String(),
  name: Nullable(Type.String()),
  org_role: Type.String(),
  role: StaffRoleSchema,
  joined_at: Type.String({ format: 'date-time' }),
  last_sign_in_at: Nullable(Type.String({ format: 'date-time' })),
  can_sign_in: Type.Boolean(),
  mfa_enabled: Type.Boolean(),
  customer_link: Nullable(Type.Object({ mode: LinkMode, customer_id: Type.Integer() })),
});
const CreatedView = Type.Intersect([
  TeammateView,
  Type.Object({ account_created: Type.Boolean(), invite_sent: Type.Boolean() }),
]);
const PolicyView = Type.Object({
  require_mfa: Type.Boolean(),
  require_mfa_since: Nullable(Type.String({ format: 'date-time' })),
});
const LinkView = Type.Object({
  member_id: Type.Integer(),
  mode: Nullable(LinkMode),
  customer_id: Nullable(Type.Integer()),
});

/** The console's team routes (base /api/v1/orgs/{org_slug}/staff/team). Only admins manage the team. */
export function registerTeamRoutes(app: ModuleApp, access: StaffAccess, team: TeamService): void {
  const admin = (request: Parameters<StaffAccess['callerIn']>[0]) => access.callerIn(request, ['admin']);

  app.post(
    '/:org_slug/staff/team',
    {
      schema: {
        summary: 'Add a teammate (an account is made for a new address; invite mail or password)',
        params: OrgParams,
        body: Type.Object(
          {
            email: Email,
            name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
            role: Type.Optional(StaffRoleSchema),
            send_invite_email: Type.Optional(Type.Boolean()),
            password: Type.Optional(NewPassword),
            customer_link: Type.Optional(LinkMode),
            customer_id: Type.Optional(Type.Integer({ minimum: 1 })),
          },
          { additionalProperties: false },
        ),
        response: { 201: CreatedView, ...errorResponses(401, 403, 404, 409, 415, 422, 429) },
      },
      config: { ...STAFF, audit: 'staff.team.create' },
    },
    async (request, reply) => {
      const caller = await admin(request);
      const created = await team.create(caller, request.body);
      request.auditNote = { resourceId: created.member_id };
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/:org_slug/staff/team/detail',
    {
      schema: {
        summary:
          'Everyone on the team: role, last sign-in, whether they can sign in, second factor, customer link',
        params: OrgParams,
        response: { 200: Type.Object({ items: Type.Array(TeammateView) }), ...errorResponses(401, 403, 429) },
      },
      config: STAFF,
    },
    async (request) => team.detail(await admin(request)),
  );

  app.get(
    '/:org_slug/staff/team/policy',
    {
      schema: {
        summary: "The console's sign-in policy",
        params: OrgParams,
        response: { 200: PolicyView, ...errorResponses(401, 403, 429) },
      },
      config: STAFF,
    },
    async (request) => team.policy(await admin(request)),
  );

  app.patch(
    '/:org_slug/staff/team/policy',
    {
      schema: {
        summary: "Change the console's sign-in policy (require_mfa needs the admin's own second factor)",
        params: OrgParams,
        body: Type.Object({ require_mfa: Type.Boolean() }, { additionalProperties: false }),
        response: { 200: PolicyView, ...errorResponses(401, 403, 409, 415, 422, 429) },
      },
      config: { ...STAFF, audit: 'staff.team.policy' },
    },
    async (request) => team.setPolicy(await admin(request), request.body.require_mfa),
  );

  app.patch(
    '/:org_slug/staff/team/:member_id',
    {
      schema: {
        summary: "Change a teammate's console role",
        params: MemberParams,
        body: Type.Object({ role: StaffRoleSchema }, { additionalProperties: false }),
        response: { 200: RoleView, ...errorResponses(401, 403, 404, 415, 422, 429) },
      },
      config: STAFF,
    },
    async (request) => {
      const caller = await access.callerIn(request, ['admin']);
      return team.setRole(caller, request.params.member_id, request.body.role);
    },
  );

  app.delete(
    '/:org_slug/staff/team/:member_id',
    {
      schema: {
        summary: 'Remove a teammate from the organization (their staff sessions end at once)',
        params: MemberParams,
        response: {
          200: Type.Object({ member_id: Type.Integer(), deleted: Type.Literal(true) }),
          ...errorResponses(401, 403, 404, 429),
        },
      },
      config: { ...STAFF, audit: 'staff.team.delete' },
    },
    async (request) => team.remove(await admin(request), request.params.member_id),
  );

  app.post(
    '/:org_slug/staff/team/:member_id/reset-mfa',
    {
      schema: {
        summary: "Remove a teammate's second factor and end their sessions (never oneself nor the owner)",
        params: MemberParams,
        response: {
          200: Type.Object({ member_id: Type.Integer(), mfa_enabled: Type.Literal(false) }),
          ...errorResponses(401, 403, 404, 429),
        },
      },
      config: { ...STAFF, audit: 'staff.team.reset_mfa', optionalBody: true },
    },
    async (request) => team.resetMfa(await admin(request), request.params.member_id),
  );

  app.post(
    '/:org_slug/staff/team/:member_id/reset-password',
    {
      schema: {
        summary: "Set a teammate's password, or mail them a reset link (never oneself nor the owner)",
        params: MemberParams,
        body: Type.Object(
          { send_email: Type.Optional(Type.Boolean()), password: Type.Optional(NewPassword) },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({
            member_id: Type.Integer(),
            password_set: Type.Boolean(),
            email_sent: Type.Boolean(),
          }),
          ...errorResponses(401, 403, 404, 415, 422, 429),
        },
      },
      config: { ...STAFF, audit: 'staff.team.reset_password', optionalBody: true },
    },
    async (request) => team.resetPassword(await admin(request), request.params.member_id, request.body ?? {}),
  );

  app.post(
    '/:org_slug/staff/team/:member_id/revoke-sessions',
    {
      schema: {
        summary: "End a teammate's staff sessions",
        params: MemberParams,
        response: {
          200: Type.Object({ member_id: Type.Integer(), revoked: Type.Literal(true) }),
          ...errorResponses(401, 403, 404, 429),
        },
      },
      config: { ...STAFF, audit: 'staff.team.revoke_sessions', optionalBody: true },
    },
    async (request) => team.revokeSessions(await admin(request), request.params.member_id),
  );

  registerLinkRoutes(app, admin, team);
  registerStepUp(app, access, team);
}

function registerLinkRoutes(
  app: ModuleApp,
  admin: (request: Parameters<StaffAccess['callerIn']>[0]) => ReturnType<StaffAccess['callerIn']>,
  team: TeamService,
): void {
  const path = '/:org_slug/staff/team/:member_id/customer-link';
  app.get(
    path,
    {
      schema: {
        summary: "A teammate's customer link",
        params: MemberParams,
        response: { 200: LinkView, ...errorResponses(401, 403, 404, 429) },
      },
      config: STAFF,
    },
    async (request) => team.link(await admin(request), request.params.member_id),
  );
  app.put(
    path,
    {
      schema: {
        summary: "Attach a teammate's storefront customer account (a step-up action)",
        params: MemberParams,
        body: Type.Object(
          {
            mode: Type.Optional(LinkMode),
            customer_id: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
          },
          { additionalProperties: false },
        ),
        response: { 200: LinkView, ...errorResponses(401, 403, 404, 415, 422, 429) },
      },
      config: { ...STAFF, audit: 'staff.team.customer_link.set' },
    },
    async (request) => team.putLink(await admin(request), request.params.member_id, request.body),
  );
  app.delete(
    path,
    {
      schema: {
        summary: 'Make a teammate console-only (their customer account stays)',
        params: MemberParams,
        response: { 200: LinkView, ...errorResponses(401, 403, 404, 429) },
      },
      config: { ...STAFF, audit: 'staff.team.customer_link.delete' },
    },
    async (request) => team.deleteLink(await admin(request), request.params.member_id),
  );
}

/** POST .../staff/auth/step-up: the caller's password or a second-factor code, for ten minutes. */
function registerStepUp(app: ModuleApp, access: StaffAccess, team: TeamService): void {
  app.post(
    '/:org_slug/staff/auth/step-up',
    {
      schema: {
        summary: 'Confirm it is you (password or second-factor code) before a sensitive change',
        params: OrgParams,
        body: Type.Object(
          {
            password: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
            code: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({ step_up_until: Type.String({ format: 'date-time' }) }),
          ...errorResponses(401, 403, 415, 422, 429),
        },
      },
      config: { ...STAFF, audit: 'staff.auth.step_up', authFailureLimit: true },
    },
    async (request) => team.stepUp(await access.caller(request), request.body),
  );
}
