/**
 * The server list answer for a route (wiki.vg "Server List Ping", the status JSON): the upstream's
 * own while it is up, with the route's `online_motd`, `favicon` and `version_name` over it; the last
 * real one it gave while it is down, with `offline_motd`; a made-up one when the edge never saw it
 * up; and the unknown-address answer when no route has the name.
 */
import type { EdgeRoute } from './route-table.ts';

/** The status JSON as a server sends it (fields the edge touches; the rest passes through). */
export interface ServerStatus {
  version?: { name?: string; protocol?: number };
  players?: { max?: number; online?: number; sample?: unknown[] };
  description?: unknown;
  favicon?: string;
  [other: string]: unknown;
}

function withOverrides(base: ServerStatus, route: EdgeRoute, motd: string | null): ServerStatus {
  const out: ServerStatus = { ...base };
  if (motd !== null) out.description = { text: motd };
  if (route.versionName !== null) out.version = { ...base.version, name: route.versionName };
  if (route.favicon !== null) out.favicon = route.favicon;
  return out;
}

/** The upstream answered now. */
export function liveStatus(upstream: ServerStatus, route: EdgeRoute): ServerStatus {
  return withOverrides(upstream, route, route.onlineMotd);
}

/** The upstream cannot be reached: its last real answer, or one made up for a client of `protocol`. */
export function offlineStatus(last: ServerStatus | null, route: EdgeRoute, protocol: number): ServerStatus {
  const base: ServerStatus = last ?? {
    version: { name: 'offline', protocol },
    players: { max: 0, online: 0 },
    description: { text: 'Server is offline' },
  };
  return withOverrides(base, route, route.offlineMotd);
}

/** No route has the name the client sent. */
export function unknownAddressStatus(text: string, protocol: number): ServerStatus {
  return { version: { name: 'unknown', protocol }, players: { max: 0, online: 0 }, description: { text } };
}
