/** What the organizations module offers other modules, and the registry entries it takes from them. */
import type { Transaction } from 'kysely';
import type { OrgRole } from '../../kernel/auth/principal.ts';
import type { OrgRow } from './orgs-tables.ts';

/** An organization as other modules see it (DNS zones owned by one, ...). */
export interface OrgSummary {
  readonly id: number;
  readonly slug: string;
  readonly name: string;
  readonly status: OrgRow['status'];
  readonly commerceEnabled: boolean;
  /** The owner's account: it holds the services the organization keeps for its customers. */
  readonly ownerUserId: number;
  /** `platform_mor`, `hybrid` or `merchant_of_record`: who invoices the organization's customers. */
  readonly billingMode: string;
  /** The platform's share of customer payments under `platform_mor`, a decimal string ("10.00"). */
  readonly platformFeePercent: string;
}

/** Organizations by slug, and a user's role in one (modules whose objects an organization may own). */
export interface OrgDirectory {
  bySlug(slug: string): Promise<OrgSummary | null>;
  byId(id: number): Promise<OrgSummary | null>;
  /**
   * The same, read inside another module's transaction (the embedded database has one connection,
   * which that transaction holds): an order document issued with its order names the seller.
   */
  byIdWithin(trx: Pick<Transaction<unknown>, 'isTransaction'>, id: number): Promise<OrgSummary | null>;
  /** The user's role in the organization, or null when not a member. */
  roleOf(orgId: number, userId: number): Promise<OrgRole | null>;
  /** The organization's members, oldest first (the staff console's team). */
  membersOf(orgId: number): Promise<{ userId: number; role: OrgRole; joinedAt: Date }[]>;
  /** Adds a user as a member with `role`; false when already a member (staff console's team). */
  addMember(orgId: number, userId: number, role: Exclude<OrgRole, 'owner'>, at: Date): Promise<boolean>;
  /**
   * Removes a member who is not the owner; false when not a member (or the owner). Their staff
   * sessions are the caller's to end.
   */
  removeMember(orgId: number, userId: number): Promise<boolean>;
}

/**
 * A live product of an organization: something that must go before the organization can be
 * deleted, with what happens to it when it ends.
 */
export interface LiveProduct {
  readonly type: string;
  readonly id: number;
  readonly name: string;
  /** What happens to it when it ends ("stops answering" for a DNS zone). */
  readonly ends: string;
}

/**
 * An entry of the live-products registry: where a module that holds organizations' products (the
 * DNS module: zones) finds an organization's.
 */
export type LiveProductSource = (orgId: number) => Promise<readonly LiveProduct[]>;
