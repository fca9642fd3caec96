import type { JsonView } from '../../kernel/http/view-schemas.ts';
import type { UserRow } from './identity-tables.ts';
import type { MfaChallenge } from './mfa/mfa-service.ts';
import type { TokenPair } from './sessions/sessions-service.ts';
import type { PublicCustomer } from './sign-in/sign-in-service.ts';

/** A main-site user as other modules see one: never the password's hash. */
export type AccountView = JsonView<Omit<UserRow, 'password_hash' | 'created_at'>>;

/** Main-site users by email or id (organization members, key owners). */
export interface AccountsDirectory {
  findUserByEmail(email: string): Promise<AccountView | null>;
  usersByIds(ids: readonly number[]): Promise<AccountView[]>;
}

/** What a staff console's team knows of a teammate's account. */
export interface TeammateAccount {
  readonly email: string;
  /** false while an invited account has no password yet. */
  readonly hasPassword: boolean;
  readonly mfaEnabled: boolean;
  /** The last sign-in to this organization's staff console. */
  readonly lastStaffSignInAt: Date | null;
}

/**
 * The accounts of an organization's staff, as its console's team manages them (staff module).
 * Staff are main-site users: these act on their main-site account.
 */
export interface StaffAccounts {
  /** The address's account, or a new one (with `password`, or waiting for an invite link). */
  provisionUser(
    email: string,
    password: string | null,
  ): Promise<{ id: number; email: string; created: boolean }>;
  /** Mails a single-use link that sets the user's password (invite: 72 hours; reset: 1 hour). */
  mailPasswordLink(
    userId: number,
    kind: 'invite' | 'reset',
    org: { readonly name: string; readonly slug: string },
  ): Promise<void>;
  /** Sets the password; every session of the account ends. */
  setPassword(userId: number, password: string): Promise<void>;
  teammates(orgId: number, userIds: readonly number[]): Promise<Map<number, TeammateAccount>>;
  mfaEnabled(userId: number): Promise<boolean>;
  /** Removes the second factor; every main-site and staff session of the account ends. */
  resetMfa(userId: number): Promise<void>;
  /** A step-up: the user's password, or a second-factor code (TOTP or recovery code). */
  confirmIdentity(
    userId: number,
    proof: { readonly password?: string; readonly code?: string },
  ): Promise<boolean>;
  /** When a standing session started (null when unknown or ended). */
  sessionStartedAt(sessionId: string): Promise<Date | null>;
  /** Ends every storefront session of a customer account. */
  endCustomerSessions(customerId: number): Promise<void>;
}

/**
 * Sign-in of an organization's storefront customers and staff, served under
 * /orgs/{org_slug}/auth/ and /orgs/{org_slug}/staff/auth/ by the organizations module, which
 * resolves the organization first.
 */
export interface RealmSignIn extends StaffAccounts {
  registerCustomer(orgId: number, email: string, password: string): Promise<PublicCustomer>;
  loginCustomer(orgId: number, email: string, password: string): Promise<TokenPair>;
  /** The signed-in customer (storefront realm). */
  customer(customerId: number): Promise<PublicCustomer>;
  /** `admit` says whether the user may enter this staff console (is a member). */
  loginStaff(
    orgId: number,
    email: string,
    password: string,
    admit: (userId: number) => Promise<boolean>,
  ): Promise<TokenPair | MfaChallenge>;
  refresh(realm: 'storefront' | 'staff', orgId: number, refreshToken: string): Promise<TokenPair>;
  logout(refreshToken: string): Promise<void>;
  forgotPassword(
    realm: 'storefront' | 'staff',
    org: { readonly id: number; readonly slug: string },
    email: string,
    ip: string,
  ): Promise<void>;
  resetCustomerPassword(orgId: number, token: string, password: string): Promise<void>;
  /** An organization's customers, newest first, ties on id (`q` matches the email address). */
  customersOf(
    orgId: number,
    query: { readonly q?: string; readonly limit: number; readonly offset: number },
  ): Promise<{ items: PublicCustomer[]; total: number; all: number }>;
  /** One customer of the organization, or null (another organization's is null too). */
  customerOf(orgId: number, customerId: number): Promise<PublicCustomer | null>;
  /** An organization was deleted: every staff and storefront session into it ends. */
  endOrgSessions(orgId: number): Promise<void>;
  /** A member left: their staff sessions into the organization end. */
  endStaffSessions(orgId: number, userId: number): Promise<void>;
}

export type { MfaChallenge, PublicCustomer, TokenPair };

/** The staff console's insights: an organization's storefront customers registered by UTC day. */
export interface CustomerInsights {
  /** Customers registered in [from, before), counted by UTC day (`YYYY-MM-DD`). */
  registrationsByDay(
    orgId: number,
    from: Date,
    before: Date,
  ): Promise<readonly { day: string; count: number }[]>;
}
