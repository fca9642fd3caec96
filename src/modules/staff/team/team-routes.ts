import { Type } from 'typebox';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { StaffAccess } from '../access/staff-access.ts';
import { StaffRoleSchema } from '../access/staff-roles.ts';
import type { TeamService } from './team-service.ts';

const STAFF = { auth: 'staff' } as const;
const MemberParams = Type.Object({
  org_slug: Type.String({ minLength: 1, maxLength: 64 }),
  member_id: Type.Integer({ minimum: 1 }),
});
const RoleView = Type.Object({
  member_id: Type.Integer(),
  role: StaffRoleSchema,
});

/** The console's team routes (base /api/v1/orgs/{org_slug}/staff/team). Only admins manage the team. */
export function registerTeamRoutes(app: ModuleApp, access: StaffAccess, team: TeamService): void {
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
}
