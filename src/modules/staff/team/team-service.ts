import type { OrgDirectory } from '../../orgs/index.ts';
import { forbiddenRole } from '../../../kernel/errors/kernel-errors.ts';
import type { StaffCaller } from '../access/staff-access.ts';
import type { StaffMembersRepository } from '../access/staff-members-repository.ts';
import type { StaffRole } from '../access/staff-roles.ts';
import { teammateNotFound } from '../staff-errors.ts';
import type { StaffContext } from '../staff-context.ts';

/** The console's team: who is on an organization's staff, and with which role. */
export class TeamService {
  constructor(
    private readonly ctx: StaffContext,
    private readonly members: StaffMembersRepository,
    private readonly orgs: OrgDirectory,
  ) {}

  /** Changes a teammate's console role; the owner's role is the organization's to change. */
  async setRole(
    caller: StaffCaller,
    memberId: number,
    role: StaffRole,
  ): Promise<{ member_id: number; role: StaffRole }> {
    const orgRole = await this.orgs.roleOf(caller.orgId, memberId);
    if (orgRole === null) throw teammateNotFound();
    if (orgRole === 'owner') throw forbiddenRole();
    await this.members.setRole(caller.orgId, memberId, role, new Date(this.ctx.clock.now()));
    return { member_id: memberId, role };
  }
}
