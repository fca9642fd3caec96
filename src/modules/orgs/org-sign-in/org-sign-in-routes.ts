import { Type, type Static } from 'typebox';
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
import { OrgSlugParams } from '../shared/org-slug-params.ts';
import type { OrgRow } from '../orgs-tables.ts';

const StaffMeView = Type.Object({
  user_id: Type.Integer(),
  org_id: Type.Integer(),
  role: Type.Union([Type.String(), Type.Null()]),
});
/** Every route here names an organization, which may not exist (or be deleted): 404. */
const answers = <S extends object>(success: S) => ({ ...success, ...errorResponses(404) });
/** These routes count toward the failed sign-in limit (docs/identity-and-organizations.md, "Limits"). */
const SIGN_IN = { auth: 'public', authFailureLimit: true, audit: false } as const;
const PUBLIC = { auth: 'public', audit: false } as const;

/** Staff sign-in may first ask for the second factor. */
const StaffLoginAnswer = Type.Union([TokenPairView, MfaChallengeView]);

type LiveOrg = (slug: string) => Promise<OrgRow>;

/** What differs between the two realms in the sign-in routes they share. */
interface Realm {
  readonly name: 'storefront' | 'staff';
  /** Where its sign-in routes are: `/:org_slug/auth` or `/:org_slug/staff/auth`. */
  readonly prefix: string;
  /** What its login answers. */
  readonly loginAnswer: typeof TokenPairView | typeof StaffLoginAnswer;
  login(orgId: number, email: string, password: string): Promise<Static<typeof StaffLoginAnswer>>;
}

/**
 * Sign-in of an organization's two other realms: its storefront's customers
 * (/orgs/{org_slug}/auth/...) and its staff console (/orgs/{org_slug}/staff/auth/...), where
 * members sign in with their main-site credentials (and second factor). A deleted organization
 * has neither.
 */
export function registerOrgSignInRoutes(
  app: ModuleApp,
  access: OrgAccess,
  realms: RealmSignIn,
  members: OrgMembersRepository,
): void {
  const org: LiveOrg = async (slug) => {
    const found = await access.liveOrg(slug);
    if (found === null) throw orgNotFound();
    return found;
  };
  registerCustomerSignUp(app, org, realms);
  registerRealmSignIn(app, org, realms, {
    name: 'storefront',
    prefix: '/:org_slug/auth',
    loginAnswer: TokenPairView,
    login: (orgId, email, password) => realms.loginCustomer(orgId, email, password),
  });
  registerCustomerAccount(app, org, realms);
  registerRealmSignIn(app, org, realms, {
    name: 'staff',
    prefix: '/:org_slug/staff/auth',
    loginAnswer: StaffLoginAnswer,
    login: (orgId, email, password) =>
      realms.loginStaff(
        orgId,
        email,
        password,
        async (userId) => (await members.roleOf(orgId, userId)) !== null,
      ),
  });
  registerStaffMe(app);
}

/** The routes both realms have, under the realm's prefix: login, refresh, logout, forgot-password. */
function registerRealmSignIn(app: ModuleApp, org: LiveOrg, realms: RealmSignIn, realm: Realm): void {
  app.post(
    `${realm.prefix}/login`,
    {
      schema: { params: OrgSlugParams, body: LoginBody, response: answers({ 200: realm.loginAnswer }) },
      config: SIGN_IN,
    },
    async (request) =>
      realm.login(Number((await org(request.params.org_slug)).id), request.body.email, request.body.password),
  );
  app.post(
    `${realm.prefix}/refresh`,
    {
      schema: { params: OrgSlugParams, body: RefreshBody, response: answers({ 200: TokenPairView }) },
      config: SIGN_IN,
    },
    async (request) =>
      realms.refresh(realm.name, Number((await org(request.params.org_slug)).id), request.body.refresh_token),
  );
  app.post(
    `${realm.prefix}/logout`,
    {
      schema: { params: OrgSlugParams, body: RefreshBody, response: answers({ 200: MessageView }) },
      config: PUBLIC,
    },
    async (request) => {
      await realms.logout(request.body.refresh_token);
      return { message: 'Logged out' };
    },
  );
  app.post(
    `${realm.prefix}/forgot-password`,
    {
      schema: { params: OrgSlugParams, body: ForgotBody, response: answers({ 200: ResetSentView }) },
      config: SIGN_IN,
    },
    async (request) => {
      const o = await org(request.params.org_slug);
      await realms.forgotPassword(
        realm.name,
        { id: Number(o.id), slug: o.slug },
        request.body.email,
        request.ip,
      );
      return RESET_SENT;
    },
  );
}

/** Storefront customers sign up (the staff realm has no sign-up: members are added). */
function registerCustomerSignUp(app: ModuleApp, org: LiveOrg, realms: RealmSignIn): void {
  app.post(
    '/:org_slug/auth/register',
    {
      schema: {
        params: OrgSlugParams,
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
}

/** A customer's password reset and the signed-in customer (staff reset theirs on the main site). */
function registerCustomerAccount(app: ModuleApp, org: LiveOrg, realms: RealmSignIn): void {
  app.post(
    '/:org_slug/auth/reset-password',
    {
      schema: { params: OrgSlugParams, body: ResetBody, response: answers({ 200: MessageView }) },
      config: PUBLIC,
    },
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
    {
      schema: { params: OrgSlugParams, response: answers({ 200: UserView }) },
      config: { auth: 'storefront' },
    },
    async (request) => realms.customer(request.principal.userId!),
  );
}

function registerStaffMe(app: ModuleApp): void {
  app.get(
    '/:org_slug/staff/me',
    { schema: { params: OrgSlugParams, response: answers({ 200: StaffMeView }) }, config: { auth: 'staff' } },
    async (request) => ({
      user_id: request.principal.userId!,
      org_id: request.principal.orgId!,
      role: request.principal.role ?? null,
    }),
  );
}
