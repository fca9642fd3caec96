import type { PlatformModule } from '../../kernel/module/platform-module.ts';
import type { AccountsDirectory, RealmSignIn } from '../identity/index.ts';
import type { OrgDirectory } from '../orgs/index.ts';
import { StaffAccess } from './access/staff-access.ts';
import { StaffMembersRepository } from './access/staff-members-repository.ts';
import { staffContext } from './staff-context.ts';
import { StaffPolicyRepository } from './access/staff-policy-repository.ts';
import { TeamRepository } from './team/team-repository.ts';
import { registerTeamRoutes } from './team/team-routes.ts';
import { TeamService } from './team/team-service.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import { registerNoticeRoutes } from './notices/notices-routes.ts';
import { registerCouponRoutes } from './coupons/coupons-routes.ts';
import { CouponsService } from './coupons/coupons-service.ts';
import type { Registry } from '../../kernel/module/registry.ts';
import type { CouponRedeemer } from '../services/index.ts';
import { NoticesService } from './notices/notices-service.ts';
import { registerActivityRoutes } from './activity/activity-routes.ts';
import { ActivityService } from './activity/activity-service.ts';
import { registerInsightsRoutes } from './insights/insights-routes.ts';
import { InsightsService, type InsightsSources } from './insights/insights-service.ts';

export interface StaffModuleDeps {
  readonly orgs: OrgDirectory;
  readonly accounts: AccountsDirectory;
  readonly realms: RealmSignIn;
  /** Where the console's coupons are offered to customers' orders (the services module reads it). */
  readonly coupons: Registry<CouponRedeemer>;
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
  // The team (team/): its sign-in policy holds for every console route.
  const policies = new StaffPolicyRepository(ctx.db);
  const access = new StaffAccess(members, { policies, accounts: deps.realms });
  const team = new TeamService(ctx, members, deps.orgs, new TeamRepository(ctx.db), policies, deps.realms);
  // Notices and coupons.
  const notices = new NoticesService(ctx, deps.orgs);
  const coupons = new CouponsService(ctx);
  deps.coupons.add(coupons);
  return {
    name: 'staff',
    prefix: '/orgs',
    routes: (app) => {
      registerTeamRoutes(app, access, team);
      // Notices and coupons.
      registerNoticeRoutes(app, access, notices);
      registerCouponRoutes(app, access, coupons);
      // Activity and insights.
      registerActivityRoutes(app, access, new ActivityService(ctx.audit));
      registerInsightsRoutes(app, access, new InsightsService(ctx.clock, deps.insights));
    },
  };
}
