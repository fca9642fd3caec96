import { orgRoleAllows, type Access } from '../../../kernel/auth/owner-scope.ts';
import type { OrgRole, Principal } from '../../../kernel/auth/principal.ts';
import { forbiddenRole, notAuthenticated } from '../../../kernel/errors/kernel-errors.ts';
import type { OrgDirectory } from '../../orgs/index.ts';
import { routeNotFound, routeOrgNotFound } from '../gameproxy-errors.ts';
import type { Route } from '../gameproxy-tables.ts';
import type { GameRoutesRepository } from './game-routes-repository.ts';

/** The caller's user id (every route here needs a main-site token, which names one). */
export function userIdOf(caller: Principal): number {
  if (caller.userId === undefined) throw notAuthenticated();
  return caller.userId;
}

/**
 * Who may do what with routes: an account's own routes are its own; an organization's are read by
 * any member and written by its owners and admins. Another's route, or an organization the caller
 * is not in, is absent (404); a member's write is 403.
 */
export class RouteAccess {
  constructor(
    private readonly repo: GameRoutesRepository,
    private readonly orgs: OrgDirectory,
  ) {}

  /** The route when the caller may read (or write) it; else routeNotFound, or forbiddenRole. */
  async route(caller: Principal, routeId: number, access: Access): Promise<Route> {
    const route = await this.repo.find(routeId);
    if (route === null) throw routeNotFound();
    if (route.org_id === null) {
      if (route.user_id !== caller.userId || caller.orgId !== undefined) throw routeNotFound();
      return route;
    }
    const role = await this.roleIn(caller, route.org_id);
    if (role === null) throw routeNotFound();
    if (!orgRoleAllows(role, access)) throw forbiddenRole();
    return route;
  }

  /** Passes when the caller may read (or write) in the organization; else 404, or 403. */
  async requireOrg(caller: Principal, orgId: number, access: Access): Promise<void> {
    const role = await this.roleIn(caller, orgId);
    if (role === null) throw routeOrgNotFound();
    if (!orgRoleAllows(role, access)) throw forbiddenRole();
  }

  /** The caller's role in a live organization, or null (not a member, no such organization). */
  async roleIn(caller: Principal, orgId: number): Promise<OrgRole | null> {
    if (caller.orgId !== undefined && caller.orgId !== orgId) return null;
    const org = await this.orgs.byId(orgId);
    if (org === null || org.status === 'deleted') return null;
    return this.orgs.roleOf(orgId, userIdOf(caller));
  }
}
