import { RouteTable, type EdgeRoute, type RouteNames } from '../../edge/index.ts';
import type { PublishedGameRoute } from '../../modules/gameproxy/index.ts';

/** The control plane's routes as the edge holds them: each flattened, with the names it answers. */
export function routeTableOf(published: readonly PublishedGameRoute[]): RouteTable {
  return new RouteTable(published.map(edgeEntry));
}

function edgeEntry(p: PublishedGameRoute): { route: EdgeRoute; names: RouteNames } {
  const route: EdgeRoute = {
    id: p.id,
    mode: p.mode,
    upstream:
      p.upstreamHost !== null && p.upstreamPort !== null
        ? { host: p.upstreamHost, port: p.upstreamPort }
        : null,
    proxyProtocol: p.proxyProtocol,
    realIp: p.realIp,
    onlineMotd: p.onlineMotd,
    offlineMotd: p.offlineMotd,
    versionName: p.versionName,
    favicon: p.favicon,
    statusCacheTtlSeconds: p.statusCacheTtlSeconds,
  };
  return { route, names: { exact: p.exact, wildcard: p.wildcard } };
}
