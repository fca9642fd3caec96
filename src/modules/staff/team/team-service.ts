import type { OrgRole } from '../../../kernel/auth/principal.ts';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import { forbiddenRole } from '../../../kernel/errors/kernel-errors.ts';
import type { RealmSignIn } from '../../identity/index.ts';
import type { OrgDirectory } from '../../orgs/index.ts';
import type { StaffCaller } from '../access/staff-access.ts';
import type { StaffMembersRepository } from '../access/staff-members-repository.ts';
import type { StaffPolicyRepository } from '../access/staff-policy-repository.ts';
import { DEFAULT_STAFF_ROLE, isStaffRole, type StaffRole } from '../access/staff-roles.ts';
import {
  alreadyOnTeam,
  linkCustomerNotFound,
  ownMfaRequired,
  stepUpRefused,
  stepUpRequired,
  teammateNotFound,
  teammateProtected,
} from '../staff-errors.ts';
import type { StaffContext } from '../staff-context.ts';
import type { StaffMemberRow } from '../staff-tables.ts';
import type { TeamRepository } from './team-repository.ts';

/** A step-up (or a sign-in) counts for ten minutes. */
export const STEP_UP_WINDOW_MS = 10 * 60_000;

export type LinkMode = 'same_login' | 'separate';

export interface CustomerLinkView {
  member_id: number;
  mode: LinkMode | null;
  customer_id: number | null;
}

export interface TeammateView {
  member_id: number;
  email: string;
  name: string | null;
  org_role: OrgRole;
  role: StaffRole;
  joined_at: string;
  last_sign_in_at: string | null;
  can_sign_in: boolean;
  mfa_enabled: boolean;
  customer_link: { mode: LinkMode; customer_id: number } | null;
}

export interface NewTeammate {
  readonly email: string;
  readonly name?: string;
  readonly role?: StaffRole;
  readonly send_invite_email?: boolean;
  readonly password?: string;
  readonly customer_link?: LinkMode;
  readonly customer_id?: number;
}

/** The console role a member acts with: the organization's owner and admins act as `admin`. */
function consoleRole(orgRole: OrgRole, row: StaffMemberRow | undefined): StaffRole {
  if (orgRole === 'owner' || orgRole === 'admin') return 'admin';
  return row !== undefined && isStaffRole(row.role) ? row.role : DEFAULT_STAFF_ROLE;
}

function linkOf(row: StaffMemberRow | undefined | null): TeammateView['customer_link'] {
  if (row == null || row.customer_id === null || row.customer_link_mode === null) return null;
  return { mode: row.customer_link_mode as LinkMode, customer_id: Number(row.customer_id) };
}

/**
 * The console's team: who is on an organization's staff (its members), their console roles,
 * accounts (invite, password, second factor, sessions), customer links and the sign-in policy.
 * Only console admins call these; the owner and the caller themself are out of reach of the
 * account actions.
 */
export class TeamService {
  constructor(
    private readonly ctx: StaffContext,
    private readonly members: StaffMembersRepository,
    private readonly orgs: OrgDirectory,
    private readonly team: TeamRepository,
    private readonly policies: StaffPolicyRepository,
    private readonly accounts: RealmSignIn,
  ) {}

  private get deps(): { team: TeamRepository; policies: StaffPolicyRepository; accounts: RealmSignIn } {
    return { team: this.team, policies: this.policies, accounts: this.accounts };
  }

  private now(): Date {
    return new Date(this.ctx.clock.now());
  }

  /** Changes a teammate's console role; the owner's role is the organization's to change. */
  async setRole(
    caller: StaffCaller,
    memberId: number,
    role: StaffRole,
  ): Promise<{ member_id: number; role: StaffRole }> {
    const orgRole = await this.orgs.roleOf(caller.orgId, memberId);
    if (orgRole === null) throw teammateNotFound();
    if (orgRole === 'owner') throw forbiddenRole();
    await this.members.setRole(caller.orgId, memberId, role, this.now());
    return { member_id: memberId, role };
  }

  /** Everyone on the team, oldest member first. */
  async detail(caller: StaffCaller): Promise<{ items: TeammateView[] }> {
    const members = await this.orgs.membersOf(caller.orgId);
    return { items: await this.views(caller.orgId, members) };
  }

  private async views(
    orgId: number,
    members: readonly { userId: number; role: OrgRole; joinedAt: Date }[],
  ): Promise<TeammateView[]> {
    const { team, accounts } = this.deps;
    const ids = members.map((m) => m.userId);
    const [rows, facts] = await Promise.all([team.rowsOf(orgId), accounts.teammates(orgId, ids)]);
    const byUser = new Map(rows.map((r) => [Number(r.user_id), r]));
    return members.map((m) => {
      const row = byUser.get(m.userId);
      const f = facts.get(m.userId);
      return {
        member_id: m.userId,
        email: f?.email ?? '',
        name: row?.name ?? null,
        org_role: m.role,
        role: consoleRole(m.role, row),
        joined_at: m.joinedAt.toISOString(),
        last_sign_in_at: f?.lastStaffSignInAt?.toISOString() ?? null,
        can_sign_in: f?.hasPassword ?? false,
        mfa_enabled: f?.mfaEnabled ?? false,
        customer_link: linkOf(row),
      };
    });
  }

  /**
   * Adds someone to the team: their main-site account (made when the address has none, with the
   * given password or an invite link), membership of the organization, console role, name and
   * customer link (a step-up action).
   */
  async create(
    caller: StaffCaller,
    input: NewTeammate,
  ): Promise<TeammateView & { account_created: boolean; invite_sent: boolean }> {
    const { team, accounts } = this.deps;
    const org = (await this.orgs.byId(caller.orgId))!;
    if (input.customer_link !== undefined && input.customer_id === undefined)
      throw invalidField(
        ['body', 'customer_id'],
        'customer_id is required with customer_link',
        null,
        'missing',
      );
    if (input.customer_id !== undefined) {
      await this.requireStepUp(caller);
      await this.checkCustomer(
        caller.orgId,
        input.customer_id,
        input.customer_link ?? 'separate',
        input.email,
      );
    }
    const user = await accounts.provisionUser(input.email, input.password ?? null);
    const at = this.now();
    if (!(await this.orgs.addMember(caller.orgId, user.id, 'member', at))) throw alreadyOnTeam();
    await team.put(
      {
        org_id: caller.orgId,
        user_id: user.id,
        role: input.role ?? DEFAULT_STAFF_ROLE,
        name: input.name ?? null,
        customer_link_mode: input.customer_id === undefined ? null : (input.customer_link ?? 'separate'),
        customer_id: input.customer_id ?? null,
      },
      at,
    );
    const send = input.send_invite_email ?? input.password === undefined;
    if (send) {
      if (user.created && input.password === undefined)
        await accounts.mailPasswordLink(user.id, 'invite', { name: org.name, slug: org.slug });
      else this.mailAdded(user.email, org, user.created);
    }
    const [view] = await this.views(caller.orgId, [{ userId: user.id, role: 'member', joinedAt: at }]);
    return { ...view!, account_created: user.created, invite_sent: send };
  }

  private mailAdded(to: string, org: { name: string; slug: string }, created: boolean): void {
    const login = `${this.ctx.config.publicWebUrl ?? ''}/orgs/${org.slug}/staff/auth/login`;
    void this.ctx.mail
      .send({
        to,
        subject: `You are invited to the staff console of ${org.name}`,
        text: [
          `You were added to the staff console of ${org.name} (${org.slug}).`,
          created
            ? `Sign in at ${login} with this address and the password you were given.`
            : `Sign in at ${login} with your usual credentials.`,
        ].join('\n'),
      })
      .catch((error: unknown) => this.ctx.log.error({ err: error }, 'team invite not sent'));
  }

  /** Removes a teammate from the organization; their staff sessions end at once. */
  async remove(caller: StaffCaller, memberId: number): Promise<{ member_id: number; deleted: true }> {
    await this.target(caller, memberId);
    await this.orgs.removeMember(caller.orgId, memberId);
    await this.deps.team.remove(caller.orgId, memberId);
    await this.deps.accounts.endStaffSessions(caller.orgId, memberId);
    return { member_id: memberId, deleted: true };
  }

  /** A member of the caller's organization that is neither the owner nor the caller. */
  private async target(caller: StaffCaller, memberId: number): Promise<OrgRole> {
    const orgRole = await this.orgs.roleOf(caller.orgId, memberId);
    if (orgRole === null) throw teammateNotFound();
    if (orgRole === 'owner' || memberId === caller.userId) throw teammateProtected();
    return orgRole;
  }

  private async member(caller: StaffCaller, memberId: number): Promise<void> {
    if ((await this.orgs.roleOf(caller.orgId, memberId)) === null) throw teammateNotFound();
  }

  async resetMfa(caller: StaffCaller, memberId: number): Promise<{ member_id: number; mfa_enabled: false }> {
    await this.target(caller, memberId);
    await this.deps.accounts.resetMfa(memberId);
    return { member_id: memberId, mfa_enabled: false };
  }

  async resetPassword(
    caller: StaffCaller,
    memberId: number,
    input: { readonly send_email?: boolean; readonly password?: string },
  ): Promise<{ member_id: number; password_set: boolean; email_sent: boolean }> {
    await this.target(caller, memberId);
    const { accounts } = this.deps;
    if (input.password !== undefined) {
      await accounts.setPassword(memberId, input.password);
      return { member_id: memberId, password_set: true, email_sent: false };
    }
    if (input.send_email === false)
      throw invalidField(
        ['body', 'password'],
        'Give a password, or let the reset link be mailed',
        null,
        'missing',
      );
    const org = (await this.orgs.byId(caller.orgId))!;
    await accounts.mailPasswordLink(memberId, 'reset', { name: org.name, slug: org.slug });
    return { member_id: memberId, password_set: false, email_sent: true };
  }

  async revokeSessions(caller: StaffCaller, memberId: number): Promise<{ member_id: number; revoked: true }> {
    await this.member(caller, memberId);
    await this.deps.accounts.endStaffSessions(caller.orgId, memberId);
    return { member_id: memberId, revoked: true };
  }

  async policy(caller: StaffCaller): Promise<{ require_mfa: boolean; require_mfa_since: string | null }> {
    const row = await this.deps.policies.policyOf(caller.orgId);
    return {
      require_mfa: row?.require_mfa ?? false,
      require_mfa_since:
        row?.require_mfa_since == null ? null : new Date(row.require_mfa_since).toISOString(),
    };
  }

  /** Turning `require_mfa` on needs the acting admin's own second factor (409 otherwise). */
  async setPolicy(
    caller: StaffCaller,
    requireMfa: boolean,
  ): Promise<{ require_mfa: boolean; require_mfa_since: string | null }> {
    const { policies, accounts } = this.deps;
    if (requireMfa && !(await accounts.mfaEnabled(caller.userId))) throw ownMfaRequired();
    const current = await policies.policyOf(caller.orgId);
    const at = this.now();
    // Already on: the rule keeps its date. Turned on: sessions started from now on are held to it.
    const since = !requireMfa ? null : current?.require_mfa ? current.require_mfa_since : at;
    await policies.setRequireMfa(caller.orgId, requireMfa, since, at);
    return this.policy(caller);
  }

  async link(caller: StaffCaller, memberId: number): Promise<CustomerLinkView> {
    await this.member(caller, memberId);
    const row = await this.members.byMember(caller.orgId, memberId);
    const link = linkOf(row);
    return { member_id: memberId, mode: link?.mode ?? null, customer_id: link?.customer_id ?? null };
  }

  /**
   * Attaches (or changes) a teammate's customer account: a step-up action. Storefront sessions
   * opened on the account it replaces end. `customer_id: null` makes the teammate console-only.
   */
  async putLink(
    caller: StaffCaller,
    memberId: number,
    input: { readonly mode?: LinkMode; readonly customer_id?: number | null },
  ): Promise<CustomerLinkView> {
    await this.member(caller, memberId);
    await this.requireStepUp(caller);
    const current = linkOf(await this.members.byMember(caller.orgId, memberId));
    const customerId =
      input.customer_id === undefined ? (current?.customer_id ?? undefined) : input.customer_id;
    if (customerId === undefined)
      throw invalidField(
        ['body', 'customer_id'],
        'customer_id is required: the teammate has no link yet',
        null,
        'missing',
      );
    if (customerId === null) return this.deleteLink(caller, memberId);
    const mode = input.mode ?? current?.mode ?? 'separate';
    const [account] = await this.deps.accounts
      .teammates(caller.orgId, [memberId])
      .then((m) => [...m.values()]);
    await this.checkCustomer(caller.orgId, customerId, mode, account?.email ?? '');
    await this.deps.team.setLink(
      caller.orgId,
      memberId,
      { mode, customerId },
      DEFAULT_STAFF_ROLE,
      this.now(),
    );
    if (current !== null && current.customer_id !== customerId)
      await this.deps.accounts.endCustomerSessions(current.customer_id);
    return { member_id: memberId, mode, customer_id: customerId };
  }

  /** Makes the teammate console-only; the customer account stays as it is. */
  async deleteLink(caller: StaffCaller, memberId: number): Promise<CustomerLinkView> {
    await this.member(caller, memberId);
    await this.deps.team.setLink(
      caller.orgId,
      memberId,
      { mode: null, customerId: null },
      DEFAULT_STAFF_ROLE,
      this.now(),
    );
    return { member_id: memberId, mode: null, customer_id: null };
  }

  /** The customer must be this organization's; `same_login` needs the teammate's own address. */
  private async checkCustomer(
    orgId: number,
    customerId: number,
    mode: LinkMode,
    email: string,
  ): Promise<void> {
    const customer = await this.deps.accounts.customerOf(orgId, customerId);
    if (customer === null) throw linkCustomerNotFound();
    if (mode === 'same_login' && customer.email.trim().toLowerCase() !== email.trim().toLowerCase())
      throw invalidField(
        ['body', 'customer_id'],
        'same_login links the customer account of the teammate’s own address',
        customerId,
      );
  }

  /** POST .../staff/auth/step-up: the caller's password or second-factor code, confirmed again. */
  async stepUp(
    caller: StaffCaller,
    proof: { readonly password?: string; readonly code?: string },
  ): Promise<{ step_up_until: string }> {
    if (proof.password === undefined && proof.code === undefined)
      throw invalidField(['body', 'password'], 'Give your password or a second-factor code', null, 'missing');
    if (caller.sessionId === undefined) throw stepUpRequired();
    if (!(await this.deps.accounts.confirmIdentity(caller.userId, proof))) throw stepUpRefused();
    const at = this.now();
    await this.deps.team.putStepUp(caller.sessionId, caller.orgId, caller.userId, at);
    return { step_up_until: new Date(at.getTime() + STEP_UP_WINDOW_MS).toISOString() };
  }

  /** A sign-in or a step-up within the last ten minutes, in this very session. */
  private async requireStepUp(caller: StaffCaller): Promise<void> {
    if (caller.sessionId === undefined) throw stepUpRequired();
    const [started, stepped] = await Promise.all([
      this.deps.accounts.sessionStartedAt(caller.sessionId),
      this.deps.team.stepUpAt(caller.sessionId),
    ]);
    const last = Math.max(started?.getTime() ?? 0, stepped?.getTime() ?? 0);
    if (this.ctx.clock.now() - last > STEP_UP_WINDOW_MS) throw stepUpRequired();
  }
}
