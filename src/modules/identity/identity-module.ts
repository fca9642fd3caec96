import type { AccessTokens } from '../../kernel/auth/access-token.ts';
import type { AuthLayer } from '../../kernel/auth/auth-layer.ts';
import { mfaVerifyBudget } from './mfa/mfa-budget.ts';
import type { PlatformModule } from '../../kernel/module/platform-module.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import { AccountsRepository, CustomerInsightsRepository } from './accounts/accounts-repository.ts';
import { identityContext } from './identity-context.ts';
import { registerMfaRoutes } from './mfa/mfa-routes.ts';
import { MfaService } from './mfa/mfa-service.ts';
import { API_PREFIX } from '../../kernel/http/api-prefix.ts';
import { registerPasswordResetPages, resetLinks } from './password-reset/password-reset-page.ts';
import { PasswordResetService } from './password-reset/password-reset-service.ts';
import type {
  AccountsDirectory,
  CustomerInsights,
  RealmSignIn,
  TeammateAccount,
} from './identity-interfaces.ts';
import { SessionsService, USER_REALMS } from './sessions/sessions-service.ts';
import { registerSignInRoutes } from './sign-in/sign-in-routes.ts';
import { SignInService } from './sign-in/sign-in-service.ts';

export interface IdentityModule extends PlatformModule {
  /** Main-site users as other modules may see them (organization members). */
  readonly accounts: AccountsDirectory;
  /** Sign-in of the storefront and staff realms, for the routes the organizations module serves. */
  readonly realms: RealmSignIn;
  /** The staff console's insights: storefront customers registered by day. */
  readonly customerInsights: CustomerInsights;
}

/**
 * Accounts and sign-in (base /api/v1/auth): main-site users and storefront customers, sessions
 * of the three realms (ended at once: the kernel asks every request whether its session stands),
 * password reset by mail, TOTP second factor.
 */
export function createIdentityModule(
  runtime: Runtime,
  deps: { readonly tokens: AccessTokens; readonly auth: AuthLayer },
): IdentityModule {
  const ctx = identityContext(runtime);
  const sessions = new SessionsService(ctx, deps.tokens);
  const mfa = new MfaService(ctx);
  const signIn = new SignInService(ctx, sessions, mfa);
  const resets = new PasswordResetService(ctx, sessions);
  const accounts = new AccountsRepository(ctx.db);
  const links = resetLinks(ctx.config.publicWebUrl, { host: ctx.config.apiHost, port: ctx.config.apiPort });
  deps.auth.setSessionCheck(sessions.isLive);
  // The four MFA routes share one budget per account; /mfa/verify's account is its MFA token's.
  ctx.budgets.setKey(mfaVerifyBudget, async (request) => {
    if (request.principal?.userId !== undefined) return `user:${request.principal.userId}`;
    const token = (request.body as { mfa_token?: unknown } | undefined)?.mfa_token;
    const userId = typeof token === 'string' ? await mfa.userOfToken(token) : null;
    return userId === null ? null : `user:${userId}`;
  });
  let unsubscribe: (() => Promise<void>) | null = null;
  const realms: RealmSignIn = {
    registerCustomer: (orgId, email, password) => signIn.registerCustomer(orgId, email, password),
    loginCustomer: (orgId, email, password) => signIn.loginCustomer(orgId, email, password),
    customer: (customerId) => signIn.customer(customerId),
    customersOf: (orgId, query) => signIn.customersOf(orgId, query),
    customerOf: (orgId, customerId) => signIn.customerOf(orgId, customerId),
    loginStaff: (orgId, email, password, admit) => signIn.loginUser('staff', orgId, email, password, admit),
    refresh: (realm, orgId, token) => sessions.refresh(realm, orgId, token),
    logout: (token) => sessions.logout(token),
    forgotPassword: (realm, org, email, ip) =>
      realm === 'staff'
        ? // Staff sign in with their main-site credentials: the main site's reset.
          resets.request({
            realm: 'main',
            orgId: null,
            email,
            ip,
            link: links.main,
          })
        : resets.request({
            realm: 'storefront',
            orgId: org.id,
            email,
            ip,
            link: (t) => links.storefront(org.slug, t),
          }),
    resetCustomerPassword: (orgId, token, password) => resets.reset('storefront', orgId, token, password),
    endOrgSessions: (orgId) => sessions.endOrg(orgId),
    endStaffSessions: (orgId, userId) => sessions.endStaff(orgId, userId),
    provisionUser: (email, password) => signIn.provisionUser(email, password),
    mailPasswordLink: async (userId, kind, org) => {
      const console = `${ctx.config.publicWebUrl ?? ''}/orgs/${org.slug}/staff/auth/login`;
      await resets.mailUserLink(
        userId,
        kind === 'invite'
          ? {
              subject: `You are invited to the staff console of ${org.name}`,
              intro: [
                `You were added to the staff console of ${org.name} (${org.slug}).`,
                `Choose your password, then sign in at ${console}.`,
              ],
              ttlMs: 72 * 3_600_000,
            }
          : {
              subject: 'Reset your password',
              intro: [`An admin of ${org.name} (${org.slug}) asked to reset the password of this account.`],
              ttlMs: 3_600_000,
            },
        links.main,
      );
    },
    setPassword: (userId, password) => signIn.setPassword(userId, password),
    teammates: async (orgId, userIds) => {
      const [facts, mfaOn, last] = await Promise.all([
        signIn.signInFacts(userIds),
        mfa.activeAmong(userIds),
        sessions.lastStaffSignIns(orgId, userIds),
      ]);
      const out = new Map<number, TeammateAccount>();
      for (const [id, f] of facts)
        out.set(id, {
          email: f.email,
          hasPassword: f.hasPassword,
          mfaEnabled: mfaOn.has(id),
          lastStaffSignInAt: last.get(id) ?? null,
        });
      return out;
    },
    mfaEnabled: (userId) => mfa.isActive(userId),
    resetMfa: async (userId) => {
      await mfa.remove(userId);
      await sessions.endFor(USER_REALMS, userId);
    },
    confirmIdentity: async (userId, proof) =>
      proof.code !== undefined
        ? mfa.confirm(userId, proof.code)
        : proof.password !== undefined && signIn.checkPassword(userId, proof.password),
    sessionStartedAt: (sessionId) => sessions.startedAt(sessionId),
    endCustomerSessions: (customerId) => sessions.endFor(['storefront'], customerId),
  };
  return {
    name: 'identity',
    prefix: '/auth',
    customerInsights: new CustomerInsightsRepository(ctx.db),
    accounts: {
      findUserByEmail: async (email) => {
        const row = await accounts.findUserByEmail(email.trim());
        return row === null ? null : { id: Number(row.id), email: row.email };
      },
      usersByIds: async (ids) =>
        (await accounts.usersByIds(ids)).map((r) => ({ id: Number(r.id), email: r.email })),
    },
    realms,
    routes(app) {
      registerSignInRoutes(app, signIn, sessions, resets, links.main);
      registerMfaRoutes(app, mfa);
    },
    pages(app) {
      registerPasswordResetPages(app, API_PREFIX);
    },
    async start() {
      unsubscribe = await sessions.listen();
    },
    async stop() {
      await unsubscribe?.();
    },
  };
}

/** Platform staff's commands (`npm run dns -- transfer-zone`): a main-site account by its email. */
export async function accountByEmail(
  runtime: Runtime,
  email: string,
): Promise<{ id: number; email: string } | null> {
  const user = await new AccountsRepository(identityContext(runtime).db).findUserByEmail(email.trim());
  return user === null ? null : { id: Number(user.id), email: user.email };
}
