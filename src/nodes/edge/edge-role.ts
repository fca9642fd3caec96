import { BlockList, isIPv6 } from 'node:net';
import { startEdgeServer, type EdgeServer } from '../../edge/index.ts';
import type { MetricsRegistry } from '../../kernel/metrics/metrics-registry.ts';
import type { Readiness } from '../../kernel/ops/readiness.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import { createGameproxyPublishing, type PublishedGameRoute } from '../../modules/gameproxy/index.ts';
import { edgeConfig, type EdgeNodeSettings } from './edge-config.ts';
import { registerEdgeMetrics } from './edge-metrics.ts';
import { EdgeRouteSync } from './edge-route-sync.ts';
import { routeTableOf } from './edge-routes.ts';
import { EdgeSnapshotFile } from './edge-snapshot-file.ts';

export interface EdgeRole {
  /** The port the edge listens on (EDGE_PORT, or the one the system gave for 0). */
  readonly port: number;
  readonly server: EdgeServer;
  readonly sync: EdgeRouteSync;
  stop(): Promise<void>;
}

/**
 * The edge role (ROLE=all or edge): the game edge on EDGE_HOST:EDGE_PORT over the routes of the
 * database, kept current from the bus and a timer, with DATA_DIR's snapshot file to route from
 * while the database is down. Registers its metrics and readiness; resolves once it listens.
 */
export async function startEdgeRole(
  runtime: Runtime,
  ops: { readonly metrics: MetricsRegistry; readonly readiness: Readiness },
): Promise<EdgeRole> {
  const settings = runtime.config.section(edgeConfig);
  const { log } = runtime;
  let server: EdgeServer | null = null;
  let held = routeTableOf([]);
  ops.readiness.set('edge', () => server !== null);
  registerEdgeMetrics(
    ops.metrics,
    () => server?.counters ?? null,
    () => held.size,
  );
  const snapshot = EdgeSnapshotFile.inDir(runtime.config.dataDir, {
    onError: (error) => log.warn({ err: error }, 'edge snapshot file not written'),
  });
  const sync = new EdgeRouteSync(
    createGameproxyPublishing(runtime),
    (routes: readonly PublishedGameRoute[]) => {
      held = routeTableOf(routes);
      server?.setRoutes(held);
    },
    log,
    { mirror: snapshot, fallback: () => snapshot.read() },
  );
  const from = await sync.start();
  try {
    server = await startEdgeServer({
      host: settings.edgeHost,
      port: settings.edgePort,
      ...playerSettings(settings),
    });
  } catch (error) {
    await sync.stop();
    throw error;
  }
  server.setRoutes(held);
  log.info({ host: settings.edgeHost, port: server.port, routes: held.size, from }, 'edge listening');
  const started = server;
  return {
    port: started.port,
    server: started,
    sync,
    async stop() {
      await started.close();
      await sync.stop();
      await snapshot.flush();
    },
  };
}

/** What the edge server takes of the settings: limits, timeouts, texts, trusted balancers. */
function playerSettings(s: EdgeNodeSettings) {
  const trusted = new BlockList();
  for (const entry of s.trustedProxies) {
    const [address = '', bits] = entry.split('/');
    const family = isIPv6(address) ? 'ipv6' : 'ipv4';
    if (bits === undefined) trusted.addAddress(address, family);
    else trusted.addSubnet(address, Number(bits), family);
  }
  return {
    limits: { rate: s.connRate, burst: s.connBurst, maxPerAddress: s.maxConnsPerIp },
    unknownAddressText: s.unknownText,
    idleTimeoutMs: s.idleTimeoutS * 1000,
    upstreamTimeoutMs: s.upstreamTimeoutMs,
    native: s.native,
    trustedProxy: (address: string) =>
      s.trustedProxies.length > 0 && trusted.check(address, isIPv6(address) ? 'ipv6' : 'ipv4'),
  };
}
