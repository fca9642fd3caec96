import type { PlatformModule } from '../../kernel/module/platform-module.ts';
import type { AccountsDirectory, RealmSignIn } from '../identity/index.ts';
import type { OrgDirectory } from '../orgs/index.ts';
import { StaffAccess } from './access/staff-access.ts';
import { StaffMembersRepository } from './access/staff-members-repository.ts';
import { staffContext } from './staff-context.ts';
import { registerTeamRoutes } from './team/team-routes.ts';
import { TeamService } from './team/team-service.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import { registerActivityRoutes } from './activity/activity-routes.ts';
import { ActivityService } from './activity/activity-service.ts';
import { registerInsightsRoutes } from './insights/insights-routes.ts';
import { InsightsService, type InsightsSources } from './insights/insights-service.ts';

export interface StaffModuleDeps {
  readonly orgs: OrgDirectory;
  readonly accounts: AccountsDirectory;
  readonly realms: RealmSignIn;
  /** Activity and insights: what the insights read of billing, Commerce, services and customers. */
  readonly insights: InsightsSources;
}

/**
 * The staff console of an organization (base /api/v1/orgs/{org_slug}/staff): its team with console
 * roles, activity, insights, notices and coupons. Every route takes a staff-realm token.
 */
export function createStaffModule(runtime: Runtime, deps: StaffModuleDeps): PlatformModule {
  const ctx = staffContext(runtime);
  const members = new StaffMembersRepository(ctx.db);
  const access = new StaffAccess(members);
  const team = new TeamService(ctx, members, deps.orgs);
  return {
    name: 'staff',
    prefix: '/orgs',
    routes: (app) => {
      registerTeamRoutes(app, access, team);
      // Activity and insights.
      registerActivityRoutes(app, access, new ActivityService(ctx.audit));
      registerInsightsRoutes(app, access, new InsightsService(ctx.clock, deps.insights));
    },
  };
}
