import { startEdgeServer, type EdgeRoute, type EdgeServer, type EdgeServerOptions } from '../edge/index.ts';

/** A proxy route to a game server on 127.0.0.1:`port`, with nothing overridden unless `over` says. */
export function edgeRoute(id: number, port: number, over: Partial<EdgeRoute> = {}): EdgeRoute {
  return {
    id,
    mode: 'proxy',
    upstream: { host: '127.0.0.1', port },
    proxyProtocol: false,
    realIp: false,
    onlineMotd: null,
    offlineMotd: null,
    versionName: null,
    favicon: null,
    statusCacheTtlSeconds: 10,
    ...over,
  };
}

/**
 * The options of an edge on 127.0.0.1 and a free port, limits out of a test's way (its load comes
 * from one address), no trusted balancer; `over` changes any of them.
 */
export function localEdgeOptions(over: Partial<EdgeServerOptions> = {}): EdgeServerOptions {
  return {
    host: '127.0.0.1',
    port: 0,
    unknownAddressText: 'Unknown address',
    idleTimeoutMs: 30_000,
    upstreamTimeoutMs: 1_000,
    trustedProxy: () => false,
    limits: { rate: 1000, burst: 1000, maxPerAddress: 64 },
    ...over,
  };
}

/** An edge server started with localEdgeOptions(over). */
export function startLocalEdge(over: Partial<EdgeServerOptions> = {}): Promise<EdgeServer> {
  return startEdgeServer(localEdgeOptions(over));
}
