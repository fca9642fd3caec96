import type { FastifyInstance, RouteOptions } from 'fastify';
import type { Config } from '../kernel/config/config.ts';
import { databaseAnswers } from '../kernel/db/database-ping.ts';
import type { Logger } from '../kernel/log/logger.ts';
import { MetricsRegistry } from '../kernel/metrics/metrics-registry.ts';
import { registerProcessMetrics } from '../kernel/metrics/process-metrics.ts';
import { registerOpsRoutes } from '../kernel/ops/ops-routes.ts';
import { startOpsServer } from '../kernel/ops/ops-server.ts';
import { Readiness } from '../kernel/ops/readiness.ts';
import { closeRuntime, openRuntime, type RuntimeOptions } from '../kernel/runtime/open-runtime.ts';
import type { CheckerRole } from '../nodes/checker/checker-role.ts';
import { createDnsNode } from '../nodes/dns/dns-node.ts';
import type { DnsRole } from '../nodes/dns/dns-role.ts';
import type { DnsWorkerRole } from '../nodes/dns/dns-worker-role.ts';
import type { EdgeRole } from '../nodes/edge/edge-role.ts';
import type { PlatformModule } from '../kernel/module/platform-module.ts';
import type { Runtime } from '../kernel/runtime/runtime.ts';

export interface RunningNode {
  readonly apiUrl: string | null;
  /** Where /metrics, /healthz and /readyz are served: the API's URL when this node has the api role. */
  readonly opsUrl: string;
  /** The DNS role served in this process (DNS_WORKERS=0, or no shared database and bus). */
  readonly dns: DnsRole | null;
  /** The DNS role served by cluster workers this process supervises. */
  readonly dnsWorkers: DnsWorkerRole | null;
  /** The game edge served in this process (ROLE=all or edge). */
  readonly edge: EdgeRole | null;
  readonly checker: CheckerRole | null;
  /** What the roles share (tests reach the database, bus and clock here). */
  readonly runtime: Runtime;
  /** The platform modules of the api role (tests reach their interfaces here). */
  readonly modules: readonly PlatformModule[];
  /** The API's routes as declared (none without the api role). */
  readonly routes: readonly RouteOptions[];
  readonly metrics: MetricsRegistry;
  stop(): Promise<void>;
}

/**
 * Starts the roles this process plays (ROLE) on one shared runtime. Each role's code is imported
 * when the role starts (the DNS node's statically, it is the reason for a small node): a DNS or
 * edge node never loads the platform modules, their routes and the libraries they use, which keeps
 * its resident memory small (docs/benchmarks.md, "Idle memory"). Every role serves /metrics,
 * /healthz and /readyz on API_PORT: the api role on its app, the others on a small ops server
 * started first, so /readyz answers 503 while the roles are still starting.
 */
export async function startNode(
  config: Config,
  log: Logger,
  options: RuntimeOptions = {},
): Promise<RunningNode> {
  const metrics = new MetricsRegistry();
  registerProcessMetrics(metrics);
  const readiness = new Readiness();
  let stopping = false;
  readiness.set('process', () => !stopping);
  const ops = { registry: metrics, readiness };
  const hasApi = config.role === 'all' || config.role === 'api';
  const stops: (() => Promise<void>)[] = [];
  let opsUrl: string | null = null;
  if (!hasApi) {
    const server = await startOpsServer(config.apiHost, config.apiPort, ops, log);
    opsUrl = server.url;
    log.info({ url: opsUrl }, 'ops endpoints listening');
    // Closed last: /healthz keeps answering while the roles drain.
    stops.push(() => server.app.close());
  }
  let started = false;
  readiness.set('runtime', () => started);
  const runtime = await openRuntime(config, log, { ...options, metrics }).catch(async (error: unknown) => {
    for (const s of stops.reverse()) await s();
    throw error;
  });
  started = true;
  // The shared backends, named under /readyz's `degraded` while they do not answer.
  if (config.databaseUrl !== null) readiness.setBackend('postgres', () => databaseAnswers(runtime.database));
  if (config.redisUrl !== null) readiness.setBackend('redis', () => runtime.bus.reachable?.() ?? true);
  let apiUrl: string | null = null;
  let dns: DnsRole | null = null;
  let dnsWorkers: DnsWorkerRole | null = null;
  let edge: EdgeRole | null = null;
  let checker: CheckerRole | null = null;
  let modules: readonly PlatformModule[] = [];
  let routes: readonly RouteOptions[] = [];
  try {
    if (config.role === 'all' || config.role === 'dns') {
      const node = await createDnsNode(runtime, { metrics, readiness }, options);
      dns = node.inProcess;
      dnsWorkers = node.workers;
      stops.push(() => node.stop());
    }
    if (config.role === 'all' || config.role === 'edge') {
      const { startEdgeRole } = await import('../nodes/edge/edge-role.ts');
      const role = await startEdgeRole(runtime, { metrics, readiness });
      edge = role;
      stops.push(() => role.stop());
    }
    if (config.role === 'all' || config.role === 'checker') {
      readiness.set('checker', () => checker !== null);
      const { startCheckerRole } = await import('../nodes/checker/checker-role.ts');
      const role = await startCheckerRole(runtime, metrics);
      checker = role;
      stops.push(() => role.stop());
    }
    if (config.role === 'worker') {
      const { startWorkerRole } = await import('../nodes/worker/worker-role.ts');
      const role = startWorkerRole(runtime, readiness);
      stops.push(() => role.stop());
    }
    if (hasApi) {
      readiness.set('database', () => databaseAnswers(runtime.database));
      const { buildApiApp } = await import('./api-app.ts');
      const api = await buildApiApp(runtime, (a: FastifyInstance) => registerOpsRoutes(a, ops));
      modules = api.modules;
      routes = api.routes;
      // Stopped with the rest if the port cannot be taken (its modules have started).
      stops.push(async () => {
        await api.app.close();
        for (const m of api.modules) await m.stop?.();
      });
      apiUrl = await api.app.listen({ host: config.apiHost, port: config.apiPort });
      opsUrl = apiUrl;
      log.info({ url: apiUrl }, 'API listening');
    }
  } catch (error) {
    for (const s of stops.reverse()) await s();
    await closeRuntime(runtime);
    throw error;
  }
  return {
    apiUrl,
    opsUrl: opsUrl ?? '',
    dns,
    dnsWorkers,
    edge,
    checker,
    runtime,
    modules,
    routes,
    metrics,
    async stop() {
      stopping = true;
      // Last started first: the API stops taking requests before the roles it reads go away.
      for (const s of stops.reverse()) await s();
      await closeRuntime(runtime);
    },
  };
}
