import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../clock.ts';
import { notAuthenticated } from '../errors/kernel-errors.ts';
import type { AccessTokenClaims, AccessTokens } from './access-token.ts';
import { NO_MEMBERSHIPS, ownedBy, type MembershipSource, type OwnerScope } from './owner-scope.ts';
import type { Principal, Realm } from './principal.ts';

/**
 * What a route needs, declared on the route (`config: { auth: ... }`) and checked here, in one
 * place, before the handler runs. A route that declares nothing needs a main-site access token.
 *
 * - `public`: nothing (sign-in, catalogue, locations, probes).
 * - `main` / `storefront` / `staff`: an access token of that realm (a storefront or staff token
 *   only under its own organization's slug).
 * - `org:member` / `org:admin` / `org:owner`: a main-site token of a member of `:org_slug` with at
 *   least that role.
 * - `{ scope }`: the Commerce API — an organization key holding the scope, or a member's token;
 *   `peopleOnly` routes (the merchant profile) refuse every key.
 * - `relay`: a relay key in `X-Api-Key` (mail sending).
 * - `partner`: a partner key as the Bearer token, of the path's organization and partner (a
 *   partner's boost claims).
 * - `publishable`: a shop's publishable key in `x-publishable-api-key`, of the path's organization
 *   (the Store API: a shopper's client, with the key's sales channel and mode).
 */
export type AuthRequirement =
  | 'public'
  | 'main'
  | 'storefront'
  | 'staff'
  | 'relay'
  | 'partner'
  | 'publishable'
  | 'org:member'
  | 'org:admin'
  | 'org:owner'
  | { readonly scope: string; readonly peopleOnly?: boolean };

export type RequirementKind = Exclude<AuthRequirement, { scope: string }> | 'scope';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthRequirement;
  }
  interface FastifyRequest {
    /** Who calls; set on every route but `public` ones (where it is ANONYMOUS). */
    principal: Principal;
    /**
     * The tenants the caller may act for (ownedBy(principal)), read once per request on first use:
     * services scope every query by it, so another tenant's object is a 404.
     */
    owner(): Promise<OwnerScope>;
  }
}

/** The caller of a public route: no user, no organization. */
export const ANONYMOUS: Principal = Object.freeze({ realm: 'main', credential: 'access_token' });

/** Decides one kind of requirement: answers the principal, or throws the refusal. */
export type RequirementCheck = (request: FastifyRequest, requirement: AuthRequirement) => Promise<Principal>;

/**
 * Runs before every route's requirement check (the account-key refusal comes first:
 * docs/keys-and-limits.md, "Credentials").
 */
export type AuthGate = (request: FastifyRequest) => void | Promise<void>;

/**
 * Whether a token's session still stands (ended by sign-out, password reset, an organization's
 * deletion): provided by the identity module; absent, every unexpired token stands.
 */
export type SessionCheck = (claims: AccessTokenClaims) => boolean | Promise<boolean>;

export function requirementKind(requirement: AuthRequirement): RequirementKind {
  return typeof requirement === 'string' ? requirement : 'scope';
}

/** `Authorization: Bearer <token>` → the token, else null. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header === undefined) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

/**
 * The authentication layer: one onRequest hook that runs the gates, then the check of the route's
 * requirement, and sets `request.principal`. The kernel decides `public` and the three realms'
 * tokens; modules provide the checks that need their data (organizations, keys) with provide().
 */
export class AuthLayer {
  private readonly gates: AuthGate[] = [];
  private readonly checks = new Map<RequirementKind, RequirementCheck>();
  private sessionCheck: SessionCheck | null = null;
  private memberships: MembershipSource = NO_MEMBERSHIPS;

  constructor(
    private readonly tokens: AccessTokens,
    private readonly clock: Clock,
  ) {
    this.checks.set('public', async () => ANONYMOUS);
    this.checks.set('main', async (request) => this.tokenPrincipal(request, 'main'));
  }

  addGate(gate: AuthGate): void {
    this.gates.push(gate);
  }

  provide(kind: RequirementKind, check: RequirementCheck): void {
    this.checks.set(kind, check);
  }

  setSessionCheck(check: SessionCheck): void {
    this.sessionCheck = check;
  }

  /** Where a main-site user's organizations come from (the organizations module). */
  setMembershipSource(source: MembershipSource): void {
    this.memberships = source;
  }

  /** The claims of the request's bearer token if it is a live token of `realm`, else null. */
  async tokenClaims(request: FastifyRequest, realm: Realm): Promise<AccessTokenClaims | null> {
    const token = bearerToken(request);
    if (token === null) return null;
    const claims = this.tokens.verify(token, this.clock.now());
    if (claims === null || claims.realm !== realm) return null;
    if (this.sessionCheck !== null && !(await this.sessionCheck(claims))) return null;
    return claims;
  }

  /** The principal of a live token of `realm`; anything else is 401 Not authenticated. */
  async tokenPrincipal(request: FastifyRequest, realm: Realm): Promise<Principal> {
    const claims = await this.tokenClaims(request, realm);
    if (claims === null) throw notAuthenticated();
    return {
      realm,
      credential: 'access_token',
      userId: claims.userId,
      ...(claims.orgId !== undefined ? { orgId: claims.orgId } : {}),
      ...(claims.sessionId !== undefined ? { sessionId: claims.sessionId } : {}),
    };
  }

  install(app: FastifyInstance): void {
    app.decorateRequest('principal', null as unknown as Principal);
    app.decorateRequest('owner', null as unknown as () => Promise<OwnerScope>);
    const declared = new Set<RequirementKind>();
    app.addHook('onRoute', (route) => {
      declared.add(requirementKind(route.config?.auth ?? 'main'));
    });
    app.addHook('onReady', async () => {
      const missing = [...declared].filter((kind) => !this.checks.has(kind));
      if (missing.length > 0) throw new Error(`no authentication provider for: ${missing.join(', ')}`);
    });
    app.addHook('onRequest', async (request) => {
      // Unknown routes fall through to the 404 handler.
      if (request.routeOptions.url === undefined) return;
      for (const gate of this.gates) await gate(request);
      const requirement = request.routeOptions.config.auth ?? 'main';
      const check = this.checks.get(requirementKind(requirement));
      if (check === undefined) throw notAuthenticated();
      const principal = await check(request, requirement);
      request.principal = principal;
      let scope: Promise<OwnerScope> | null = null;
      request.owner = () => (scope ??= ownedBy(principal, this.memberships));
    });
  }
}
