import type { Runtime } from '../../../kernel/runtime/runtime.ts';
import { gameproxyContext } from '../gameproxy-context.ts';
import { routesChanged } from '../gameproxy-events.ts';
import type { GameproxyPublishing, PublishedGameRoute } from '../gameproxy-interfaces.ts';
import { RoutePublishingRepository, type PublishedRouteRow } from './route-publishing-repository.ts';

/** What an edge node reads: every route with the names it answers, and word when they change. */
export function createGameproxyPublishing(runtime: Runtime): GameproxyPublishing {
  const ctx = gameproxyContext(runtime);
  const repository = new RoutePublishingRepository(ctx.db);
  return {
    routes: async () => (await repository.allRoutes()).map(publishedRoute),
    onRoutesChanged: (handler) => ctx.events.subscribe(routesChanged, (e) => handler(e.routeIds)),
  };
}

/**
 * A row as the edge routes it: its own address exactly and every name under it, plus its custom
 * domain once verified. An upstream named by service only has no address yet (null upstream).
 */
export function publishedRoute(row: PublishedRouteRow): PublishedGameRoute {
  const address = `${row.subdomain}.${row.base_domain}`.toLowerCase();
  const exact = [address];
  if (row.custom_fqdn !== null && row.custom_status === 'verified') exact.push(row.custom_fqdn.toLowerCase());
  const hasUpstream = row.upstream_host !== null && row.upstream_port !== null;
  return {
    id: row.id,
    mode: row.mode,
    upstreamHost: hasUpstream ? row.upstream_host : null,
    upstreamPort: hasUpstream ? row.upstream_port : null,
    proxyProtocol: row.proxy_protocol,
    realIp: row.real_ip,
    onlineMotd: row.online_motd,
    offlineMotd: row.offline_motd,
    versionName: row.version_name,
    favicon: row.favicon,
    statusCacheTtlSeconds: row.status_cache_ttl_seconds,
    exact,
    wildcard: [address],
  };
}
