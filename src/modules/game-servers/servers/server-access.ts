/**
 * Who may do what on a server: its holder (the service's account, or an owner or admin of its
 * organization) has every permission and manages its users; a server user has the permissions
 * the holder gave, and always reads; anyone else finds no server (404).
 */
import { canAccess, type OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import { permissionMissing, serverNotFound, notServerOwner } from '../game-servers-errors.ts';
import type { Server, ServersRepository } from './servers-repository.ts';

export const PERMISSIONS = ['software.read', 'software.install'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** A server as a caller may use it. */
export interface ServerGrant {
  readonly server: Server;
  readonly owner: boolean;
  readonly permissions: readonly Permission[];
}

export class ServerAccess {
  constructor(private readonly servers: ServersRepository) {}

  /** The server and the caller's permissions on it; 404 when the caller has none. */
  async grant(scope: OwnerScope, uuid: string): Promise<ServerGrant> {
    const server = await this.servers.find(uuid);
    if (server === null) throw serverNotFound();
    return this.grantOn(scope, server);
  }

  async grantOn(scope: OwnerScope, server: Server): Promise<ServerGrant> {
    if (canAccess(scope, server, 'write')) return { server, owner: true, permissions: PERMISSIONS };
    const user = await this.servers.user(server.uuid, scope.userId);
    if (user !== null) {
      const given = PERMISSIONS.filter((p) => p === 'software.read' || user.permissions.includes(p));
      return { server, owner: false, permissions: given };
    }
    // A member of the holding organization who may not change it reads it.
    if (canAccess(scope, server, 'read')) return { server, owner: false, permissions: ['software.read'] };
    throw serverNotFound();
  }

  /** The server when the caller has `permission` on it (404 without any, 403 without this one). */
  async require(scope: OwnerScope, uuid: string, permission: Permission): Promise<ServerGrant> {
    const grant = await this.grant(scope, uuid);
    if (!grant.permissions.includes(permission)) throw permissionMissing(permission);
    return grant;
  }

  async requireOwner(scope: OwnerScope, uuid: string): Promise<ServerGrant> {
    const grant = await this.grant(scope, uuid);
    if (!grant.owner) throw notServerOwner();
    return grant;
  }
}
