import type { FastifyRequest } from 'fastify';
import type { AuthLayer, AuthRequirement } from '../../../kernel/auth/auth-layer.ts';
import type { MembershipSource } from '../../../kernel/auth/owner-scope.ts';
import { roleAtLeast, type OrgRole, type Principal } from '../../../kernel/auth/principal.ts';
import { joinTransaction } from '../../../kernel/db/unit-of-work.ts';
import { forbiddenRole, notAuthenticated } from '../../../kernel/errors/kernel-errors.ts';
import type { OrganizationsRepository } from '../organizations/organizations-repository.ts';
import type { OrgMembersRepository } from '../org-members/org-members-repository.ts';
import { orgNotFound } from '../orgs-errors.ts';
import type { OrgDirectory, OrgSummary } from '../orgs-interfaces.ts';
import type { OrgRow, OrgsTables } from '../orgs-tables.ts';

function slugOf(request: FastifyRequest): string {
  const slug = (request.params as { org_slug?: unknown } | undefined)?.org_slug;
  return typeof slug === 'string' ? slug : '';
}

/**
 * The organizations module's part of authentication: the checks of the `org:*` requirements (a
 * main-site member of `:org_slug` with at least the role), of the `storefront` and `staff`
 * realms (a token of that realm into this very organization), and the memberships a main-site
 * token acts with on account routes (an organization's DNS zones, ...). A deleted organization
 * is absent to all of them: 404 to members, 401 to its staff and customers.
 */
export class OrgAccess {
  constructor(
    private readonly orgs: OrganizationsRepository,
    private readonly members: OrgMembersRepository,
  ) {}

  readonly directory: OrgDirectory = {
    bySlug: async (slug) => summaryOf(await this.orgs.bySlug(slug)),
    byId: async (id) => summaryOf(await this.orgs.byId(id)),
    byIdWithin: async (trx, id) =>
      summaryOf(await this.orgs.withTx(joinTransaction<OrgsTables>(trx)).byId(id)),
    roleOf: (orgId, userId) => this.members.roleOf(orgId, userId),
    membersOf: async (orgId) =>
      (await this.members.list(orgId)).map((r) => ({
        userId: Number(r.user_id),
        role: r.role,
        joinedAt: new Date(r.created_at),
      })),
    addMember: async (orgId, userId, role, at) =>
      (await this.members.insert(orgId, userId, role, at)) !== null,
    removeMember: async (orgId, userId) =>
      (await this.members.roleOf(orgId, userId)) !== 'owner' && this.members.deleteUser(orgId, userId),
  };

  readonly memberships: MembershipSource = { rolesOf: (userId) => this.members.rolesOfUser(userId) };

  install(auth: AuthLayer): void {
    const member =
      (needed: OrgRole) =>
      async (request: FastifyRequest): Promise<Principal> => {
        // A caller without a live token gets its 401 before anything of the org is read; then
        // the organization and the caller's role in it come in one round trip (the session
        // check is in memory once the session is known).
        const principal = await auth.tokenPrincipal(request, 'main');
        const found = await this.orgs.membershipBySlug(slugOf(request), principal.userId!);
        if (found === null || found.status === 'deleted' || found.role === null) throw orgNotFound();
        if (!roleAtLeast(found.role, needed)) throw forbiddenRole();
        return { ...principal, orgId: found.id, role: found.role };
      };
    auth.provide('org:member', member('member'));
    auth.provide('org:admin', member('admin'));
    auth.provide('org:owner', member('owner'));
    auth.provide('storefront', (request, requirement) => this.realmPrincipal(auth, request, requirement));
    auth.provide('staff', (request, requirement) => this.realmPrincipal(auth, request, requirement));
    auth.setMembershipSource(this.memberships);
  }

  /** The organization of an organization route, unless it is deleted. */
  async liveOrg(slug: string): Promise<OrgRow | null> {
    const org = await this.orgs.bySlug(slug);
    return org === null || org.status === 'deleted' ? null : org;
  }

  private async realmPrincipal(
    auth: AuthLayer,
    request: FastifyRequest,
    requirement: AuthRequirement,
  ): Promise<Principal> {
    const realm = requirement === 'staff' ? 'staff' : 'storefront';
    const principal = await auth.tokenPrincipal(request, realm);
    const org = await this.liveOrg(slugOf(request));
    if (org === null || Number(org.id) !== principal.orgId) throw notAuthenticated();
    if (realm === 'staff') {
      // A member who left no longer enters the console, whatever token they still hold.
      const role = await this.members.roleOf(org.id, principal.userId!);
      if (role === null) throw notAuthenticated();
      return { ...principal, role };
    }
    return principal;
  }
}

function summaryOf(org: OrgRow | null): OrgSummary | null {
  if (org === null) return null;
  return {
    id: Number(org.id),
    slug: org.slug,
    name: org.name,
    status: org.status,
    commerceEnabled: org.commerce_enabled,
    ownerUserId: Number(org.owner_user_id),
    billingMode: org.billing_mode,
    platformFeePercent: String(org.platform_fee_percent),
  };
}
