import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { createDnsCounters } from '../dns/index.ts';
import type { ProbeResult } from '../health/health-target.ts';
import type { Config } from '../kernel/config/config.ts';
import type { Logger } from '../kernel/log/logger.ts';
import { MetricsRegistry } from '../kernel/metrics/metrics-registry.ts';
import { registerProcessMetrics } from '../kernel/metrics/process-metrics.ts';
import { buildApiApp } from './api-app.ts';
import { startCheckerRole, type CheckerRole } from './checker-role.ts';
import { registerDnsMetrics } from './dns-metrics.ts';
import { startDnsRole, type DnsRole } from './dns-role.ts';
import {
  dnsWorkerPlan,
  registerDnsWorkerMetrics,
  startDnsWorkerRole,
  type DnsWorkerRole,
} from './dns-worker-role.ts';
import { registerOpsRoutes } from './ops-routes.ts';
import { startOpsServer } from './ops-server.ts';
import { Readiness } from './readiness.ts';
import { closeRuntime, openRuntime, type RuntimeOptions } from './runtime.ts';

export interface RunningNode {
  readonly apiUrl: string | null;
  /** Where /metrics, /healthz and /readyz are served: the API's URL when this node has the api role. */
  readonly opsUrl: string;
  /** The DNS role served in this process (DNS_WORKERS=0, or no shared database and bus). */
  readonly dns: DnsRole | null;
  /** The DNS role served by cluster workers this process supervises. */
  readonly dnsWorkers: DnsWorkerRole | null;
  readonly checker: CheckerRole | null;
  readonly metrics: MetricsRegistry;
  stop(): Promise<void>;
}

/** Upper bounds in seconds of the probe-duration buckets. */
const PROBE_BUCKETS_S = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Starts the roles this process plays (ROLE) on one shared runtime. Every role serves /metrics,
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
  const ctx = await openRuntime(config, log, options).catch(async (error: unknown) => {
    for (const s of stops.reverse()) await s();
    throw error;
  });
  started = true;
  let apiUrl: string | null = null;
  let dns: DnsRole | null = null;
  let dnsWorkers: DnsWorkerRole | null = null;
  let checker: CheckerRole | null = null;
  try {
    if (config.role === 'all' || config.role === 'dns') {
      const counters = createDnsCounters();
      const plan = dnsWorkerPlan(config);
      if (plan.inProcessBecause !== null) {
        log.info({ dnsWorkers: config.dnsWorkers, reason: plan.inProcessBecause }, 'DNS served in-process');
      }
      if (plan.workers === 0) {
        // startDnsRole resolves once the zones are in the store: ready from then on.
        readiness.set('dns', () => dns !== null);
        registerDnsMetrics(metrics, counters, () => dns?.store.size ?? 0);
        const role = await startDnsRole(ctx, counters);
        dns = role;
        stops.push(() => role.stop());
      } else {
        // Resolves once every worker has its zones and listens; the metrics are the workers' sums.
        readiness.set('dns', () => dnsWorkers?.ready() ?? false);
        registerDnsMetrics(metrics, counters, () => dnsWorkers?.zoneCount() ?? 0);
        registerDnsWorkerMetrics(metrics, () => dnsWorkers);
        const role = await startDnsWorkerRole(ctx, plan.workers, counters, options);
        dnsWorkers = role;
        stops.push(() => role.stop());
      }
    }
    if (config.role === 'all' || config.role === 'checker') {
      readiness.set('checker', () => checker !== null);
      const role = await startCheckerRole(ctx, probeMetrics(metrics));
      checker = role;
      stops.push(() => role.stop());
    }
    if (hasApi) {
      readiness.set('database', async () => {
        await sql`select 1`.execute(ctx.db);
        return true;
      });
      const { app, modules } = await buildApiApp(ctx, (a: FastifyInstance) => registerOpsRoutes(a, ops));
      apiUrl = await app.listen({ host: config.apiHost, port: config.apiPort });
      opsUrl = apiUrl;
      log.info({ url: apiUrl }, 'API listening');
      stops.push(async () => {
        await app.close();
        for (const m of modules) await m.stop?.();
      });
    }
  } catch (error) {
    for (const s of stops.reverse()) await s();
    await closeRuntime(ctx);
    throw error;
  }
  return {
    apiUrl,
    opsUrl: opsUrl ?? '',
    dns,
    dnsWorkers,
    checker,
    metrics,
    async stop() {
      stopping = true;
      // Last started first: the API stops taking requests before the roles it reads go away.
      for (const s of stops.reverse()) await s();
      await closeRuntime(ctx);
    },
  };
}

function probeMetrics(metrics: MetricsRegistry): (result: ProbeResult) => void {
  const probes = metrics.counter('health_probes_total', 'Health probes run by this checker, by result.', [
    'status',
  ]);
  const duration = metrics.histogram(
    'health_probe_duration_seconds',
    'Time from the start of a probe to its verdict (probes that attempted a connection).',
    PROBE_BUCKETS_S,
  );
  return (result) => {
    probes.inc({ status: result.status });
    if (result.latencyMs !== null) duration.observe(result.latencyMs / 1000);
  };
}
