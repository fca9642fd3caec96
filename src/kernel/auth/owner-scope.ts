import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { notAuthenticated } from '../errors/kernel-errors.ts';
import { roleAtLeast, type OrgRole, type Principal } from './principal.ts';

/**
 * The tenants a caller may act for, and how far: their own account, and each organization they
 * belong to with their role there. Every service scopes its reads and writes by one of these, so
 * another tenant's object is absent (404), never leaked.
 */
export interface OwnerScope {
  readonly userId: number;
  /** Organizations the caller belongs to, with the role held. */
  readonly orgRoles: ReadonlyMap<number, OrgRole>;
}

/** An owned row: an account's own (org_id null) or an organization's. */
export interface OwnedRow {
  /** null: held by the platform, no account's. */
  readonly user_id: number | null;
  readonly org_id?: number | null;
}

/** Organizations a user belongs to (provided by the organizations module; none until it exists). */
export interface MembershipSource {
  rolesOf(userId: number): Promise<ReadonlyMap<number, OrgRole>>;
}

export const NO_MEMBERSHIPS: MembershipSource = { rolesOf: async () => new Map() };

/**
 * The owner scope of a principal (`ownedBy`). A main-site token acts for its account and every
 * organization its user belongs to; a token or key that acts inside one organization
 * (organization routes, storefront, staff, keys) acts for that organization only.
 */
export function ownedBy(principal: Principal, memberships: MembershipSource): Promise<OwnerScope> {
  if (principal.orgId !== undefined) {
    const role = principal.role ?? 'member';
    return Promise.resolve({ userId: principal.userId ?? 0, orgRoles: new Map([[principal.orgId, role]]) });
  }
  if (principal.userId === undefined) throw notAuthenticated();
  const userId = principal.userId;
  return memberships.rolesOf(userId).then((orgRoles) => ({ userId, orgRoles }));
}

/** A scope of one account and no organization (jobs acting for a user; tests). */
export function accountScope(userId: number): OwnerScope {
  return { userId, orgRoles: new Map() };
}

export type Access = 'read' | 'write';

/** Readers are any member; writers are owners and admins (`member` reads only). */
export function orgRoleAllows(role: OrgRole | undefined, access: Access): boolean {
  return access === 'read' ? role !== undefined : roleAtLeast(role, 'admin');
}

export function canAccess(scope: OwnerScope, row: OwnedRow, access: Access): boolean {
  const org = row.org_id ?? null;
  if (org === null) return row.user_id === scope.userId;
  return orgRoleAllows(scope.orgRoles.get(org), access);
}

/** Organization ids the scope may read (or write) in. */
export function orgIdsFor(scope: OwnerScope, access: Access): number[] {
  return [...scope.orgRoles].filter(([, role]) => orgRoleAllows(role, access)).map(([id]) => id);
}

/**
 * The SQL form of canAccess for a table with `user_id` and `org_id` columns (optionally behind
 * `alias`): `(user_id = me AND org_id IS NULL) OR org_id IN (...)`.
 */
export function ownedRows(scope: OwnerScope, access: Access, alias?: string): RawBuilder<SqlBool> {
  const col = (name: string) => sql.ref(alias !== undefined ? `${alias}.${name}` : name);
  const own = sql<SqlBool>`(${col('user_id')} = ${scope.userId} AND ${col('org_id')} IS NULL)`;
  const orgs = orgIdsFor(scope, access);
  if (orgs.length === 0) return own;
  return sql<SqlBool>`(${own} OR ${col('org_id')} IN (${sql.join(orgs)}))`;
}
