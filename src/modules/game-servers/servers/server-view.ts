/** A server and its users as the API answers them. */
import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type { ServerGrant } from './server-access.ts';
import type { Server, ServerUser } from './servers-repository.ts';

export type ServerView = JsonView<
  Pick<Server, 'uuid' | 'service_id' | 'name' | 'game_version' | 'loader' | 'node' | 'created_at'>
> & {
  software: JsonView<Pick<Server, 'specialization_slug' | 'version_id' | 'build_number'>> & {
    /**
     * On the single server's read: the newest stable Paper build of its game version (null when
     * Paper does not answer, or the server does not run Paper).
     */
    latest_build?: LatestBuildView | null;
  };
  /** Whether the caller holds the server (else: a user of it). */
  owner: boolean;
  /** The caller's permissions on it. */
  permissions: string[];
};

/** A build of the server software at its source. */
export interface LatestBuildView {
  build: number;
  channel: string;
}

export type ServerUserView = JsonView<Pick<ServerUser, 'user_id' | 'email' | 'permissions' | 'created_at'>>;

export function serverView(grant: ServerGrant): ServerView {
  const s = grant.server;
  return {
    uuid: s.uuid,
    service_id: s.service_id,
    name: s.name,
    software: {
      specialization_slug: s.specialization_slug,
      version_id: s.version_id,
      build_number: s.build_number,
    },
    game_version: s.game_version,
    loader: s.loader,
    node: s.node,
    created_at: s.created_at.toISOString(),
    owner: grant.owner,
    permissions: [...grant.permissions],
  };
}

export function serverUserView(u: ServerUser): ServerUserView {
  return {
    user_id: u.user_id,
    email: u.email,
    permissions: u.permissions,
    created_at: u.created_at.toISOString(),
  };
}
