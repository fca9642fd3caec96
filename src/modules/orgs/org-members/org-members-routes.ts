import { Type } from 'typebox';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { OrgSlugParams } from '../shared/org-slug-params.ts';
import type { OrgMembersService } from './org-members-service.ts';

const MemberParams = Type.Object({
  org_slug: Type.String({ minLength: 1, maxLength: 64 }),
  member_id: Type.Integer({ minimum: 1 }),
});
const AddMemberBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 254 }),
    role: Type.Unsafe<'admin' | 'member'>({ type: 'string', enum: ['admin', 'member'] }),
  },
  { additionalProperties: false },
);
const RoleBody = Type.Object(
  { role: Type.Unsafe<'owner' | 'admin' | 'member'>({ type: 'string', enum: ['owner', 'admin', 'member'] }) },
  { additionalProperties: false },
);
const MemberView = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  email: Type.String(),
  role: Type.String(),
  created_at: Type.String(),
});

/** /orgs/{org_slug}/members: list (any member), add, change role (owner, admin), remove (or leave). */
export function registerOrgMemberRoutes(app: ModuleApp, service: OrgMembersService): void {
  app.get(
    '/:org_slug/members',
    {
      schema: {
        description: 'The organization’s members, ordered by when they joined (id).',
        params: OrgSlugParams,
        response: { 200: Type.Array(MemberView) },
      },
      config: { auth: 'org:member' },
    },
    async (request) => service.list(request.principal),
  );

  app.post(
    '/:org_slug/members',
    {
      schema: { params: OrgSlugParams, body: AddMemberBody, response: { 201: MemberView } },
      config: { auth: 'org:admin', audit: 'org.member.add' },
    },
    async (request, reply) =>
      reply.code(201).send(await service.add(request.principal, request.body.email, request.body.role)),
  );

  app.patch(
    '/:org_slug/members/:member_id',
    {
      schema: { params: MemberParams, body: RoleBody, response: { 200: MemberView } },
      config: { auth: 'org:admin', audit: 'org.member.update' },
    },
    async (request) => service.changeRole(request.principal, request.params.member_id, request.body.role),
  );

  app.delete(
    '/:org_slug/members/:member_id',
    {
      schema: {
        params: MemberParams,
        response: { 200: Type.Object({ id: Type.Integer(), deleted: Type.Boolean() }) },
      },
      config: { auth: 'org:member', audit: 'org.member.remove' },
    },
    async (request) => service.remove(request.principal, request.params.member_id),
  );
}
