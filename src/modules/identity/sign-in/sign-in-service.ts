import { randomBytes } from 'node:crypto';
import type { Realm } from '../../../kernel/auth/principal.ts';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../../../kernel/auth/password-hash.ts';
import { notAuthenticated } from '../../../kernel/errors/kernel-errors.ts';
import { AccountsRepository } from '../accounts/accounts-repository.ts';
import type { IdentityContext } from '../identity-context.ts';
import { badCredentials, emailTaken } from '../identity-errors.ts';
import { customerCreated } from '../identity-events.ts';
import type { MfaChallenge, MfaService } from '../mfa/mfa-service.ts';
import { USER_REALMS, type SessionsService, type TokenPair } from '../sessions/sessions-service.ts';

/**
 * The password hash of an account made by a staff console's invite, before its first password is
 * chosen: no password matches it (the scheme is not `scrypt`), and it tells that the account
 * cannot sign in yet.
 */
const INVITE_PENDING = '!invite$';

export interface PublicUser {
  id: number;
  email: string;
  created_at: string;
}

export interface PublicCustomer {
  id: number;
  email: string;
  created_at: string;
}

const view = (row: { id: number; email: string; created_at: Date }): PublicUser => ({
  id: Number(row.id),
  email: row.email,
  created_at: new Date(row.created_at).toISOString(),
});

/**
 * Registration and password sign-in for every realm. Main-site users sign in to the main site
 * and (as members) to staff consoles; storefront customers to their organization's storefront.
 * An unknown address and a wrong password answer alike, in about the same time (a dummy hash is
 * verified for unknown addresses). With a second factor, a user's sign-in answers an MFA
 * challenge instead of tokens.
 */
export class SignInService {
  private readonly accounts: AccountsRepository;

  constructor(
    private readonly ctx: IdentityContext,
    private readonly sessions: SessionsService,
    private readonly mfa: MfaService,
  ) {
    this.accounts = new AccountsRepository(ctx.db);
  }

  async registerUser(email: string, password: string): Promise<PublicUser> {
    const row = await this.accounts.insertUser(email.trim(), await hashPassword(password));
    if (row === null) throw emailTaken();
    return view(row);
  }

  async registerCustomer(orgId: number, email: string, password: string): Promise<PublicCustomer> {
    const hash = await hashPassword(password);
    return this.ctx.transaction(async (uow) => {
      const row = await this.accounts
        .withTx(uow.trx)
        .insertCustomer(orgId, email.trim(), hash, new Date(this.ctx.clock.now()));
      if (row === null) throw emailTaken();
      uow.emit(customerCreated, { orgId, customerId: Number(row.id), email: row.email });
      // The event `customer.created` for the organization's webhooks, in this very transaction.
      await uow.record({
        orgId,
        name: 'customer.created',
        data: { customer_id: Number(row.id), email: row.email },
      });
      return view(row);
    });
  }

  /**
   * A user's sign-in to the main site or (with `admit` saying the user may enter) a staff console.
   * A user refused by `admit` is answered as a wrong password: membership is not disclosed.
   */
  async loginUser(
    realm: Extract<Realm, 'main' | 'staff'>,
    orgId: number | null,
    email: string,
    password: string,
    admit: (userId: number) => Promise<boolean> = async () => true,
  ): Promise<TokenPair | MfaChallenge> {
    const user = await this.accounts.findUserByEmail(email.trim());
    const ok = await verifyPassword(password, user?.password_hash ?? (await dummyPasswordHash));
    if (user === null || !ok || !(await admit(Number(user.id)))) throw badCredentials();
    const userId = Number(user.id);
    if (await this.mfa.isActive(userId)) return this.mfa.challenge(userId, realm, orgId);
    return this.sessions.start(realm, userId, orgId);
  }

  async loginCustomer(orgId: number, email: string, password: string): Promise<TokenPair> {
    const customer = await this.accounts.findCustomerByEmail(orgId, email.trim());
    const ok = await verifyPassword(password, customer?.password_hash ?? (await dummyPasswordHash));
    if (customer === null || !ok) throw badCredentials();
    return this.sessions.start('storefront', Number(customer.id), orgId);
  }

  /** POST /auth/mfa/verify: the second factor of a pending sign-in, of whichever realm it was. */
  async completeMfa(mfaToken: string, code: string): Promise<TokenPair> {
    const signIn = await this.mfa.verify(mfaToken, code);
    return this.sessions.start(signIn.realm, signIn.userId, signIn.orgId);
  }

  async customer(customerId: number): Promise<PublicCustomer> {
    const row = await this.accounts.findCustomer(customerId);
    if (!row) throw notAuthenticated();
    return view(row);
  }

  async customersOf(
    orgId: number,
    query: { readonly q?: string; readonly limit: number; readonly offset: number },
  ): Promise<{ items: PublicCustomer[]; total: number; all: number }> {
    const page = await this.accounts.customersOfOrg(orgId, query.q, query.limit, query.offset);
    return { items: page.rows.map(view), total: page.total, all: page.all };
  }

  async customerOf(orgId: number, customerId: number): Promise<PublicCustomer | null> {
    const row = await this.accounts.findCustomerOfOrg(orgId, customerId);
    return row === null ? null : view(row);
  }

  /**
   * A main-site account for a new teammate of a staff console: the existing account of the
   * address (left as it is), or a new one with `password` — or, without one, an account nobody
   * can sign in to until the invite link sets its first password.
   */
  async provisionUser(
    email: string,
    password: string | null,
  ): Promise<{ id: number; email: string; created: boolean }> {
    const address = email.trim();
    const existing = await this.accounts.findUserByEmail(address);
    if (existing !== null) return { id: Number(existing.id), email: existing.email, created: false };
    const hash =
      password === null
        ? INVITE_PENDING + (await hashPassword(randomBytes(18).toString('base64url')))
        : await hashPassword(password);
    const row = await this.accounts.insertUser(address, hash);
    if (row !== null) return { id: Number(row.id), email: row.email, created: true };
    const raced = await this.accounts.findUserByEmail(address);
    if (raced === null) throw emailTaken();
    return { id: Number(raced.id), email: raced.email, created: false };
  }

  /** Whether `password` is the user's (a step-up). */
  async checkPassword(userId: number, password: string): Promise<boolean> {
    const user = await this.accounts.findUser(userId);
    return verifyPassword(password, user?.password_hash ?? (await dummyPasswordHash));
  }

  /** Sets a user's password (an admin's reset): every session of the account ends. */
  async setPassword(userId: number, password: string): Promise<void> {
    await this.accounts.setUserPassword(userId, await hashPassword(password));
    await this.sessions.endFor(USER_REALMS, userId);
  }

  /** Each user's address, and whether the account has a password to sign in with. */
  async signInFacts(
    userIds: readonly number[],
  ): Promise<Map<number, { email: string; hasPassword: boolean }>> {
    return new Map(
      (await this.accounts.usersByIds(userIds)).map((u) => [
        Number(u.id),
        { email: u.email, hasPassword: !u.password_hash.startsWith(INVITE_PENDING) },
      ]),
    );
  }

  async me(userId: number): Promise<PublicUser> {
    const user = await this.accounts.findUser(userId);
    if (!user) throw notAuthenticated();
    return view(user);
  }
}
