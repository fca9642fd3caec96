import type { AuthLayer } from '../../kernel/auth/auth-layer.ts';
import type { PlatformModule } from '../../kernel/module/platform-module.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { AccountsDirectory, RealmSignIn } from '../identity/index.ts';
import { OrgAccess } from './org-access/org-access.ts';
import type { Registry } from '../../kernel/module/registry.ts';
import type { LiveProductSource, OrgDirectory } from './orgs-interfaces.ts';
import { OrgMembersRepository } from './org-members/org-members-repository.ts';
import { registerOrgCustomerRoutes } from './org-customers/org-customers-routes.ts';
import { registerOrgMemberRoutes } from './org-members/org-members-routes.ts';
import { OrgMembersService } from './org-members/org-members-service.ts';
import { registerOrgSignInRoutes } from './org-sign-in/org-sign-in-routes.ts';
import { OrganizationsRepository } from './organizations/organizations-repository.ts';
import { registerOrganizationRoutes } from './organizations/organizations-routes.ts';
import { OrganizationsService } from './organizations/organizations-service.ts';
import { orgsContext } from './orgs-context.ts';
import { orgNotFound } from './orgs-errors.ts';

export interface OrgsModuleDeps {
  readonly auth: AuthLayer;
  readonly accounts: AccountsDirectory;
  readonly realms: RealmSignIn;
  /** Modules that hold organizations' products add where to find them here (deletion check). */
  readonly liveProducts: Registry<LiveProductSource>;
}

export interface OrgsModule extends PlatformModule {
  /** Organizations by slug (for modules whose objects an organization may own). */
  readonly directory: OrgDirectory;
}

/**
 * Organizations (base /api/v1/orgs): the organization record, members and roles, deletion, the
 * audit log, and the sign-in routes of its storefront and staff realms. It decides the `org:*`,
 * `storefront` and `staff` requirements of the kernel's authentication layer.
 */
export function createOrgsModule(runtime: Runtime, deps: OrgsModuleDeps): OrgsModule {
  const ctx = orgsContext(runtime);
  const members = new OrgMembersRepository(ctx.db);
  const orgRecords = new OrganizationsRepository(ctx.db);
  const access = new OrgAccess(orgRecords, members);
  access.install(deps.auth);
  const organizations = new OrganizationsService(ctx, deps.liveProducts, deps.realms);
  const memberService = new OrgMembersService(ctx, deps.accounts, deps.realms, orgRecords);
  return {
    name: 'orgs',
    prefix: '/orgs',
    directory: access.directory,
    routes(app) {
      registerOrganizationRoutes(app, organizations, ctx.audit);
      registerOrgMemberRoutes(app, memberService);
      registerOrgSignInRoutes(app, access, deps.realms, members);
      registerOrgCustomerRoutes(app, deps.realms);
    },
  };
}

/** Platform staff (`npm run org -- reactivate <slug>`): a deleted organization becomes active again. */
export async function reactivateOrganization(runtime: Runtime, slug: string): Promise<string> {
  const ctx = orgsContext(runtime);
  const orgs = new OrganizationsRepository(ctx.db);
  const org = await orgs.bySlug(slug);
  if (org === null) throw orgNotFound();
  await orgs.setStatus(org.id, 'active', new Date(ctx.clock.now()));
  return `${org.slug}: active (was ${org.status})`;
}

/**
 * Platform staff's commands (`npm run dns -- transfer-zone`): an organization by slug with its
 * owner (who stands for it where a row needs an account, as the creator of its zones does).
 */
export async function orgWithOwner(
  runtime: Runtime,
  slug: string,
): Promise<{ id: number; slug: string; status: string; ownerUserId: number } | null> {
  const ctx = orgsContext(runtime);
  const org = await new OrganizationsRepository(ctx.db).bySlug(slug);
  if (org === null) return null;
  const owner = await ctx.transaction(async (uow) => new OrgMembersRepository(uow.trx).findOwner(org.id));
  if (owner === null) return null;
  return { id: Number(org.id), slug: org.slug, status: org.status, ownerUserId: Number(owner.user_id) };
}
