import type { OrgRole, Principal } from '../../../kernel/auth/principal.ts';
import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import { forbiddenRole } from '../../../kernel/errors/kernel-errors.ts';
import type { AccountsDirectory, RealmSignIn } from '../../identity/index.ts';
import type { OrgsContext } from '../orgs-context.ts';
import {
  alreadyMember,
  memberNotFound,
  ownerCannotLeave,
  ownerProtected,
  userNotFound,
} from '../orgs-errors.ts';
import type { OrgMemberRow, OrgRow } from '../orgs-tables.ts';
import { OrgMembersRepository } from './org-members-repository.ts';

/** What the members service reads and writes of the organization record (its repository). */
export interface OrgRecords {
  byId(id: number): Promise<OrgRow | null>;
  update(id: number, set: Partial<Pick<OrgRow, 'owner_user_id'>>, now: Date): Promise<void>;
  withTx(trx: Parameters<OrgMembersRepository['withTx']>[0]): OrgRecords;
}

/** A member as the API shows one: the membership row, and the user's e-mail address. */
export type OrgMemberView = JsonView<Omit<OrgMemberRow, 'org_id'>> & { email: string };

/**
 * Members and roles. `owner` (exactly one), `admin`, `member` (reads only). Owners and admins
 * manage members; an admin cannot touch the owner; ownership moves only when the owner makes
 * another member owner (the owner becomes admin); nobody removes the owner. A member may leave.
 */
export class OrgMembersService {
  private readonly members: OrgMembersRepository;
  constructor(
    private readonly ctx: OrgsContext,
    private readonly accounts: AccountsDirectory,
    private readonly realms: RealmSignIn,
    private readonly orgs: OrgRecords,
  ) {
    this.members = new OrgMembersRepository(ctx.db);
  }

  async list(principal: Principal): Promise<OrgMemberView[]> {
    const rows = await this.members.list(principal.orgId!);
    const emails = new Map(
      (await this.accounts.usersByIds(rows.map((r) => Number(r.user_id)))).map((u) => [u.id, u.email]),
    );
    return rows.map((r) => this.view(r, emails.get(Number(r.user_id)) ?? ''));
  }

  async add(principal: Principal, email: string, role: OrgRole): Promise<OrgMemberView> {
    const orgId = principal.orgId!;
    const user = await this.accounts.findUserByEmail(email);
    if (user === null) throw userNotFound();
    const row = await this.members.insert(orgId, user.id, role, new Date(this.ctx.clock.now()));
    if (row === null) throw alreadyMember();
    const org = await this.orgs.byId(orgId);
    void this.ctx.mail
      .send({
        to: user.email,
        subject: `You were added to ${org?.name ?? 'an organization'}`,
        text: `You are now ${role === 'admin' ? 'an admin' : 'a member'} of ${org?.name} (${org?.slug}). Sign in to the staff console with your usual credentials.`,
      })
      .catch((error: unknown) => this.ctx.log.error({ err: error }, 'member notice not sent'));
    return this.view(row, user.email);
  }

  async changeRole(principal: Principal, memberId: number, role: OrgRole): Promise<OrgMemberView> {
    const orgId = principal.orgId!;
    const now = new Date(this.ctx.clock.now());
    const row = await this.ctx.transaction(async ({ trx }) => {
      const members = this.members.withTx(trx);
      const target = await members.find(orgId, memberId, true);
      if (target === null) throw memberNotFound();
      const byOwner = principal.role === 'owner';
      if (target.role === 'owner') {
        if (!byOwner) throw ownerProtected();
        if (role !== 'owner') throw ownerCannotLeave();
        return target;
      }
      if (role === 'owner') {
        if (!byOwner) throw ownerProtected();
        // Ownership moves: the owner steps down to admin first (one owner at any time).
        const owner = await members.findOwner(orgId);
        if (owner !== null) await members.setRole(owner.id, 'admin');
        await members.setRole(target.id, 'owner');
        await this.orgs.withTx(trx).update(orgId, { owner_user_id: Number(target.user_id) }, now);
      } else {
        await members.setRole(target.id, role);
      }
      return { ...target, role };
    });
    const [user] = await this.accounts.usersByIds([Number(row.user_id)]);
    return this.view(row, user?.email ?? '');
  }

  async remove(principal: Principal, memberId: number): Promise<{ id: number; deleted: true }> {
    const orgId = principal.orgId!;
    const target = await this.members.find(orgId, memberId);
    if (target === null) throw memberNotFound();
    if (target.role === 'owner') throw ownerCannotLeave();
    const self = Number(target.user_id) === principal.userId;
    if (!self && principal.role !== 'owner' && principal.role !== 'admin') throw forbiddenRole();
    await this.members.delete(target.id);
    await this.realms.endStaffSessions(orgId, Number(target.user_id));
    return { id: Number(target.id), deleted: true };
  }

  private view(row: OrgMemberRow, email: string): OrgMemberView {
    return {
      id: Number(row.id),
      user_id: Number(row.user_id),
      email,
      role: row.role,
      created_at: new Date(row.created_at).toISOString(),
    };
  }
}
