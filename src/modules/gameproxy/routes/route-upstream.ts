import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import type { Principal } from '../../../kernel/auth/principal.ts';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { ServiceDirectory } from '../../services/index.ts';
import { userIdOf, type RouteAccess } from './route-access.ts';
import { checkUpstreamHost, type HostLookup } from './upstream-check.ts';

/** The game server services a route may lead to (the catalogue's `module_name`). */
export const GAME_SERVER_MODULE = 'game_server';
/** The port a Minecraft Java server listens on when an upstream host is given without one. */
export const DEFAULT_UPSTREAM_PORT = 25565;

/** Where a route's traffic goes, once checked (all null: a status-only route without one). */
export interface Upstream {
  readonly serviceId: number | null;
  readonly host: string | null;
  readonly port: number | null;
}

export interface UpstreamInput {
  readonly upstream_service_id?: number | null;
  readonly upstream_host?: string | null;
  readonly upstream_port?: number | null;
}

/**
 * A route's upstream as asked: a game server service of the route's owner, or a host the edge may
 * reach (port 25565 unless given); each refusal is 422 naming its field.
 */
export class UpstreamResolver {
  constructor(
    private readonly services: ServiceDirectory,
    private readonly access: RouteAccess,
    private readonly lookup: HostLookup,
    private readonly allowPrivate: boolean,
  ) {}

  async resolve(caller: Principal, orgId: number | null, input: UpstreamInput): Promise<Upstream> {
    const serviceId = input.upstream_service_id ?? null;
    const host = input.upstream_host ?? null;
    const port = input.upstream_port ?? null;
    if (serviceId !== null && host !== null)
      throw invalidField(
        ['body', 'upstream_host'],
        'Give upstream_service_id or upstream_host, not both',
        host,
      );
    if (serviceId !== null) {
      await this.requireGameServer(caller, orgId, serviceId);
      return { serviceId, host: null, port };
    }
    if (host === null) {
      if (port !== null)
        throw invalidField(['body', 'upstream_port'], 'upstream_port goes with upstream_host', port);
      return { serviceId: null, host: null, port: null };
    }
    const checked = await checkUpstreamHost(host, this.allowPrivate, this.lookup);
    if ('refused' in checked) throw invalidField(['body', 'upstream_host'], checked.refused, host);
    return { serviceId: null, host: checked.host, port: port ?? DEFAULT_UPSTREAM_PORT };
  }

  /** A live game server service the caller may change, held by the route's own owner; else 422. */
  private async requireGameServer(caller: Principal, orgId: number | null, serviceId: number): Promise<void> {
    const role = orgId === null ? null : await this.access.roleIn(caller, orgId);
    const scope: OwnerScope = {
      userId: userIdOf(caller),
      orgRoles: new Map(orgId === null || role === null ? [] : [[orgId, role]]),
    };
    const service = await this.services.summaryFor(scope, serviceId, 'write');
    const usable =
      service !== null &&
      service.module === GAME_SERVER_MODULE &&
      service.orgId === orgId &&
      service.status !== 'terminated';
    if (!usable)
      throw invalidField(
        ['body', 'upstream_service_id'],
        'No game server service of yours with this id',
        serviceId,
      );
  }
}
