import { Type } from 'typebox';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import {
  ForgotPasswordBody as ForgotBody,
  LoginBody,
  MessageView,
  MfaChallengeView,
  RefreshBody,
  RegisterBody,
  RESET_SENT,
  ResetPasswordBody as ResetBody,
  ResetSentView,
  TokenPairView,
  UserView,
  type RealmSignIn,
} from '../../identity/index.ts';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { OrgAccess } from '../org-access/org-access.ts';
import type { OrgMembersRepository } from '../org-members/org-members-repository.ts';
import { orgNotFound } from '../orgs-errors.ts';
import type { OrgRow } from '../orgs-tables.ts';

const Params = Type.Object({ org_slug: Type.String({ minLength: 1, maxLength: 64 }) });
const StaffMeView = Type.Object({
  user_id: Type.Integer(),
  org_id: Type.Integer(),
  role: Type.Union([Type.String(), Type.Null()]),
});
/** Every route here names an organization, which may not exist (or be deleted): 404. */
const answers = <S extends object>(success: S) => ({ ...success, ...errorResponses(404) });
/** Seed "Failed sign-ins": these routes count toward the failed sign-in limit. */
const SIGN_IN = { auth: 'public', authFailureLimit: true, audit: false } as const;
const PUBLIC = { auth: 'public', audit: false } as const;

/**
 * Sign-in of an organization's two other realms: its storefront's customers
 * (/orgs/{org_slug}/auth/...) and its staff console (/orgs/{org_slug}/staff/auth/...), where
 * members sign in with their main-site credentials. A deleted organization has neither.
 */
export function registerOrgSignInRoutes(
  app: ModuleApp,
  access: OrgAccess,
  realms: RealmSignIn,
  members: OrgMembersRepository,
): void {
  const org = async (slug: string): Promise<OrgRow> => {
    const found = await access.liveOrg(slug);
    if (found === null) throw orgNotFound();
    return found;
  };

  // Storefront customers.
  app.post(
    '/:org_slug/auth/register',
    {
      schema: {
        params: Params,
        body: RegisterBody,
        response: answers({ 201: UserView, ...errorResponses(409) }),
      },
      config: SIGN_IN,
    },
    async (request, reply) => {
      const o = await org(request.params.org_slug);
      return reply
        .code(201)
        .send(await realms.registerCustomer(Number(o.id), request.body.email, request.body.password));
    },
  );
  app.post(
    '/:org_slug/auth/login',
    {
      schema: { params: Params, body: LoginBody, response: answers({ 200: TokenPairView }) },
      config: SIGN_IN,
    },
    async (request) =>
      realms.loginCustomer(
        Number((await org(request.params.org_slug)).id),
        request.body.email,
        request.body.password,
      ),
  );
  app.post(
    '/:org_slug/auth/refresh',
    {
      schema: { params: Params, body: RefreshBody, response: answers({ 200: TokenPairView }) },
      config: SIGN_IN,
    },
    async (request) =>
      realms.refresh(
        'storefront',
        Number((await org(request.params.org_slug)).id),
        request.body.refresh_token,
      ),
  );
  app.post(
    '/:org_slug/auth/logout',
    {
      schema: { params: Params, body: RefreshBody, response: answers({ 200: MessageView }) },
      config: PUBLIC,
    },
    async (request) => {
      await realms.logout(request.body.refresh_token);
      return { message: 'Logged out' };
    },
  );
  app.post(
    '/:org_slug/auth/forgot-password',
    {
      schema: { params: Params, body: ForgotBody, response: answers({ 200: ResetSentView }) },
      config: SIGN_IN,
    },
    async (request) => {
      const o = await org(request.params.org_slug);
      await realms.forgotPassword(
        'storefront',
        { id: Number(o.id), slug: o.slug },
        request.body.email,
        request.ip,
      );
      return RESET_SENT;
    },
  );
  app.post(
    '/:org_slug/auth/reset-password',
    { schema: { params: Params, body: ResetBody, response: answers({ 200: MessageView }) }, config: PUBLIC },
    async (request) => {
      await realms.resetCustomerPassword(
        Number((await org(request.params.org_slug)).id),
        request.body.token,
        request.body.password,
      );
      return { message: 'Password changed' };
    },
  );
  app.get(
    '/:org_slug/auth/me',
    { schema: { params: Params, response: answers({ 200: UserView }) }, config: { auth: 'storefront' } },
    async (request) => realms.customer(request.principal.userId!),
  );

  // Staff console: members, with their main-site credentials (and second factor).
  app.post(
    '/:org_slug/staff/auth/login',
    {
      schema: {
        params: Params,
        body: LoginBody,
        response: answers({ 200: Type.Union([TokenPairView, MfaChallengeView]) }),
      },
      config: SIGN_IN,
    },
    async (request) => {
      const orgId = Number((await org(request.params.org_slug)).id);
      return realms.loginStaff(
        orgId,
        request.body.email,
        request.body.password,
        async (userId) => (await members.roleOf(orgId, userId)) !== null,
      );
    },
  );
  app.post(
    '/:org_slug/staff/auth/refresh',
    {
      schema: { params: Params, body: RefreshBody, response: answers({ 200: TokenPairView }) },
      config: SIGN_IN,
    },
    async (request) =>
      realms.refresh('staff', Number((await org(request.params.org_slug)).id), request.body.refresh_token),
  );
  app.post(
    '/:org_slug/staff/auth/logout',
    {
      schema: { params: Params, body: RefreshBody, response: answers({ 200: MessageView }) },
      config: PUBLIC,
    },
    async (request) => {
      await realms.logout(request.body.refresh_token);
      return { message: 'Logged out' };
    },
  );
  app.post(
    '/:org_slug/staff/auth/forgot-password',
    {
      schema: { params: Params, body: ForgotBody, response: answers({ 200: ResetSentView }) },
      config: SIGN_IN,
    },
    async (request) => {
      const o = await org(request.params.org_slug);
      await realms.forgotPassword(
        'staff',
        { id: Number(o.id), slug: o.slug },
        request.body.email,
        request.ip,
      );
      return RESET_SENT;
    },
  );
  app.get(
    '/:org_slug/staff/me',
    { schema: { params: Params, response: answers({ 200: StaffMeView }) }, config: { auth: 'staff' } },
    async (request) => ({
      user_id: request.principal.userId!,
      org_id: request.principal.orgId!,
      role: request.principal.role ?? null,
    }),
  );
}
