/**
 * Who calls, and on whose behalf: built by the auth layer (auth-layer.ts) from the request's
 * credential and the route's declared requirement, and read by services through ownedBy().
 *
 * Realms (docs/identity-and-organizations.md, "Three sign-in realms"): `main` is the main site;
 * `storefront` an organization's customers; `staff` an organization's staff console. A session
 * belongs to exactly one realm. Credential kinds: access tokens (per realm), organization API keys
 * (Commerce API only), relay keys (mail sending only), partner keys (a partner's boost claims
 * only), publishable keys (the Store API only: public by design, they name a shop's sales channel
 * and mode, never a person). Account API keys are a sixth kind that is always refused.
 */
export type Realm = 'main' | 'storefront' | 'staff';
export type CredentialKind = 'access_token' | 'org_key' | 'relay_key' | 'partner_key' | 'publishable_key';
export type OrgRole = 'owner' | 'admin' | 'member';

export interface Principal {
  readonly realm: Realm;
  readonly credential: CredentialKind;
  /** main and staff: the user; storefront: the customer account. Absent for keys. */
  readonly userId?: number;
  /** The organization acted in: storefront/staff tokens, organization keys, organization routes. */
  readonly orgId?: number;
  /** The caller's role in `orgId` (organization routes with a member's token). */
  readonly role?: OrgRole;
  /** Scopes of an organization key. */
  readonly scopes?: readonly string[];
  /** The session a token belongs to (refresh-token family), when the token names one. */
  readonly sessionId?: string;
  /** The key used, for organization, relay and partner keys. */
  readonly keyId?: number;
  /** The partner a partner key speaks for (its slug). */
  readonly partner?: string;
  /** A publishable key's sales channel: what the shopper sees and where carts are made. */
  readonly salesChannelId?: number;
  /** A publishable key's mode: carts and orders made with it are `test` or `live`. */
  readonly keyMode?: 'test' | 'live';
}

/** The roles at or above `role`, highest first. */
const ROLE_RANK: Readonly<Record<OrgRole, number>> = { owner: 3, admin: 2, member: 1 };

export function roleAtLeast(role: OrgRole | undefined, needed: OrgRole): boolean {
  return role !== undefined && ROLE_RANK[role] >= ROLE_RANK[needed];
}
