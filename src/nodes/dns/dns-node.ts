import { createDnsCounters } from '../../dns/index.ts';
import type { MetricsRegistry } from '../../kernel/metrics/metrics-registry.ts';
import type { Readiness } from '../../kernel/ops/readiness.ts';
import type { RuntimeOptions } from '../../kernel/runtime/open-runtime.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import { dnsConfig } from '../../modules/dns/index.ts';
import { registerDnsMetrics } from './dns-metrics.ts';
import { startDnsRole, type DnsRole } from './dns-role.ts';
import {
  dnsWorkerPlan,
  registerDnsWorkerMetrics,
  startDnsWorkerRole,
  type DnsWorkerRole,
} from './dns-worker-role.ts';

/** A DNS node of this process: served here, or by cluster workers this process supervises. */
export interface DnsNode {
  /** The DNS role served in this process (DNS_WORKERS=0, or no shared database and bus). */
  readonly inProcess: DnsRole | null;
  /** The DNS role served by cluster workers. */
  readonly workers: DnsWorkerRole | null;
  /** SIGHUP: nothing reloads (zones follow the bus); workers are told too. */
  hangUp(): void;
  stop(): Promise<void>;
}

/**
 * Starts the DNS role as the configuration asks (DNS_WORKERS, and whether the database and bus
 * reach other processes), registers its metrics and its readiness check. Resolves once the zones
 * are loaded and the listeners are up.
 */
export async function createDnsNode(
  runtime: Runtime,
  ops: { readonly metrics: MetricsRegistry; readonly readiness: Readiness },
  options: RuntimeOptions = {},
): Promise<DnsNode> {
  const settings = runtime.config.section(dnsConfig);
  const counters = createDnsCounters();
  const plan = dnsWorkerPlan({
    ...settings,
    databaseUrl: runtime.config.databaseUrl,
    redisUrl: runtime.config.redisUrl,
  });
  if (plan.inProcessBecause !== null) {
    runtime.log.info(
      { dnsWorkers: settings.dnsWorkers, reason: plan.inProcessBecause },
      'DNS served in-process',
    );
  }
  if (plan.workers === 0) {
    let role: DnsRole | null = null;
    // Resolves once the zones are in the store: ready from then on.
    ops.readiness.set('dns', () => role !== null);
    registerDnsMetrics(ops.metrics, counters, () => role?.store.size ?? 0);
    role = await startDnsRole(runtime, counters);
    const started = role;
    return { inProcess: started, workers: null, hangUp: () => undefined, stop: () => started.stop() };
  }
  let workers: DnsWorkerRole | null = null;
  // Resolves once every worker has its zones and listens; the metrics are the workers' sums.
  ops.readiness.set('dns', () => workers?.ready() ?? false);
  registerDnsMetrics(ops.metrics, counters, () => workers?.zoneCount() ?? 0);
  registerDnsWorkerMetrics(ops.metrics, () => workers);
  workers = await startDnsWorkerRole(runtime, plan.workers, counters, options);
  const started = workers;
  return { inProcess: null, workers: started, hangUp: () => started.hangUp(), stop: () => started.stop() };
}
