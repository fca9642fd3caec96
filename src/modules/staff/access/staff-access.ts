import type { FastifyRequest } from 'fastify';
import type { OrgRole } from '../../../kernel/auth/principal.ts';
import type { StaffAccounts } from '../../identity/index.ts';
import { mfaEnrolmentRequired, staffRoleForbidden } from '../staff-errors.ts';
import type { StaffPolicyRepository } from './staff-policy-repository.ts';
import type { StaffMembersRepository } from './staff-members-repository.ts';
import { DEFAULT_STAFF_ROLE, isStaffRole, type StaffRole } from './staff-roles.ts';

/** Who calls a console route: a teammate signed in to the organization's staff realm. */
export interface StaffCaller {
  readonly orgId: number;
  readonly userId: number;
  /** The console role the caller acts with. */
  readonly role: StaffRole;
  /** The caller's role in the organization (main realm): its owner and admins act as `admin`. */
  readonly orgRole: OrgRole;
  /** The session of the caller's token, when it names one. */
  readonly sessionId?: string;
}

/**
 * The console role of the caller of a route declared `auth: 'staff'` (a staff-realm token into
 * `:org_slug`, checked by the organizations module before the handler runs).
 */
export class StaffAccess {
  constructor(
    private readonly members: StaffMembersRepository,
    private readonly policy?: {
      readonly policies: StaffPolicyRepository;
      readonly accounts: Pick<StaffAccounts, 'mfaEnabled' | 'sessionStartedAt'>;
    },
  ) {}

  async caller(request: FastifyRequest): Promise<StaffCaller> {
    const p = request.principal;
    const orgId = p.orgId!;
    const userId = p.userId!;
    const orgRole = p.role ?? 'member';
    await this.checkPolicy(orgId, userId, p.sessionId);
    return {
      orgId,
      userId,
      orgRole,
      sessionId: p.sessionId,
      role: await this.roleOf(orgId, userId, orgRole),
    };
  }

  /** The caller, refused with 403 unless their role is one of `allowed`. */
  async callerIn(request: FastifyRequest, allowed: readonly StaffRole[]): Promise<StaffCaller> {
    const caller = await this.caller(request);
    if (!allowed.includes(caller.role)) throw staffRoleForbidden();
    return caller;
  }

  /**
   * The console's `require_mfa`: a session started after the rule was turned on, by a member
   * without a second factor, may only enrol (on the main site): every console route answers 403
   * `staff.mfa_enrolment_required` until the account holds one. Sessions started before stand.
   */
  private async checkPolicy(orgId: number, userId: number, sessionId: string | undefined): Promise<void> {
    if (this.policy === undefined) return;
    const policy = await this.policy.policies.policyOf(orgId);
    if (policy === null || !policy.require_mfa) return;
    const since = policy.require_mfa_since === null ? 0 : new Date(policy.require_mfa_since).getTime();
    const started = sessionId === undefined ? null : await this.policy.accounts.sessionStartedAt(sessionId);
    if (started !== null && started.getTime() < since) return;
    if (await this.policy.accounts.mfaEnabled(userId)) return;
    throw mfaEnrolmentRequired();
  }

  /** A member's console role: owners and admins act as `admin`; else their row, else `tier1`. */
  async roleOf(orgId: number, userId: number, orgRole: OrgRole): Promise<StaffRole> {
    if (orgRole === 'owner' || orgRole === 'admin') return 'admin';
    const row = await this.members.byMember(orgId, userId);
    return row !== null && isStaffRole(row.role) ? row.role : DEFAULT_STAFF_ROLE;
  }
}
