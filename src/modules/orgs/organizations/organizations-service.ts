import type { Principal } from '../../../kernel/auth/principal.ts';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { RealmSignIn } from '../../identity/index.ts';
import { OrgMembersRepository } from '../org-members/org-members-repository.ts';
import type { OrgsContext } from '../orgs-context.ts';
import { deleteNotOwner, liveProducts, orgNotFound, slugTaken } from '../orgs-errors.ts';
import type { OrgRow } from '../orgs-tables.ts';
import type { Registry } from '../../../kernel/module/registry.ts';
import type { LiveProduct, LiveProductSource } from '../orgs-interfaces.ts';
import { liveProductsOf } from './live-products.ts';
import { organizationView, type OrganizationView } from './organization-view.ts';
import { OrganizationsRepository } from './organizations-repository.ts';

export interface OrgUpdate {
  readonly name?: string | null;
  readonly billing_mode?: string | null;
  readonly tier?: string | null;
}

/**
 * Organizations: creation (the creator is the owner), the caller's list, settings, deletion
 * checked in order (confirm, live products, owner), and reactivation by platform staff.
 */
export class OrganizationsService {
  private readonly orgs: OrganizationsRepository;
  private readonly members: OrgMembersRepository;

  constructor(
    private readonly ctx: OrgsContext,
    /** Where other modules' products of an organization are found (deletion waits for none). */
    private readonly products: Registry<LiveProductSource>,
    private readonly realms: RealmSignIn,
  ) {
    this.orgs = new OrganizationsRepository(ctx.db);
    this.members = new OrgMembersRepository(ctx.db);
  }

  async create(userId: number, slug: string, name: string): Promise<OrganizationView> {
    const now = new Date(this.ctx.clock.now());
    return this.ctx.transaction(async ({ trx }) => {
      const org = await this.orgs.withTx(trx).insert(slug, name.trim(), userId, now);
      if (org === null) throw slugTaken();
      await this.members.withTx(trx).insert(org.id, userId, 'owner', now);
      return organizationView(org, 'owner');
    });
  }

  async listOfUser(userId: number): Promise<OrganizationView[]> {
    return (await this.orgs.listOfUser(userId)).map((o) => organizationView(o, o.my_role));
  }

  /** The organization of an organization route (the auth layer checked the caller's membership). */
  async get(principal: Principal): Promise<OrganizationView> {
    return organizationView(await this.current(principal), principal.role ?? null);
  }

  async update(principal: Principal, body: OrgUpdate): Promise<OrganizationView> {
    const org = await this.current(principal);
    const set: Partial<Pick<OrgRow, 'name' | 'billing_mode' | 'tier'>> = {};
    if (typeof body.name === 'string') set.name = body.name.trim();
    if (typeof body.billing_mode === 'string') set.billing_mode = body.billing_mode;
    if (typeof body.tier === 'string') set.tier = body.tier;
    if (Object.keys(set).length > 0) await this.orgs.update(org.id, set, new Date(this.ctx.clock.now()));
    return this.get(principal);
  }

  /** The settings: Commerce on or off (default off). */
  async settings(principal: Principal): Promise<{ commerce_enabled: boolean }> {
    return { commerce_enabled: (await this.current(principal)).commerce_enabled };
  }

  async updateSettings(
    principal: Principal,
    body: { commerce_enabled?: boolean },
  ): Promise<{ commerce_enabled: boolean }> {
    const org = await this.current(principal);
    if (body.commerce_enabled !== undefined && body.commerce_enabled !== org.commerce_enabled) {
      await this.orgs.update(
        org.id,
        { commerce_enabled: body.commerce_enabled },
        new Date(this.ctx.clock.now()),
      );
    }
    return this.settings(principal);
  }

  async deletion(principal: Principal): Promise<{ products: LiveProduct[] }> {
    return { products: await liveProductsOf(this.products, (await this.current(principal)).id) };
  }

  /**
   * The deletion rules, in order: `confirm` must be the slug (422), no live product may remain
   * (409 naming them), the caller must be the owner on a main-site session (403). Then the
   * organization is `deleted` (nothing erased) and every staff and storefront session into it ends.
   */
  async delete(principal: Principal, confirm: string): Promise<OrganizationView> {
    const org = await this.current(principal);
    if (confirm.trim().toLowerCase() !== org.slug.toLowerCase()) {
      throw invalidField(['query', 'confirm'], 'confirm must equal the organization slug', confirm);
    }
    const products = await liveProductsOf(this.products, org.id);
    if (products.length > 0) throw liveProducts(products);
    if (principal.realm !== 'main' || principal.credential !== 'access_token' || principal.role !== 'owner') {
      throw deleteNotOwner();
    }
    await this.orgs.setStatus(org.id, 'deleted', new Date(this.ctx.clock.now()));
    await this.realms.endOrgSessions(org.id);
    return organizationView((await this.orgs.byId(org.id))!, principal.role);
  }

  private async current(principal: Principal): Promise<OrgRow> {
    const org = principal.orgId === undefined ? null : await this.orgs.byId(principal.orgId);
    if (org === null) throw orgNotFound();
    return org;
  }
}
