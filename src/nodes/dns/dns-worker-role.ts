/**
 * The DNS role on every core: DNS_WORKERS node:cluster workers share DNS_HOST:DNS_PORT, each running
 * the same pipeline as the in-process role (dns-worker-zones.ts); this process supervises them
 * (restart with backoff, src/dns/server/dns-workers.ts) and serves their metrics: on every scrape
 * it asks each worker for its counters and merges them, so `dns_queries_total` and the rest are
 * sums over workers.
 */
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DnsCounters } from '../../dns/index.ts';
import {
  addSnapshot,
  emptySnapshot,
  loadMergedCounters,
  snapshotQueryTotal,
  type DnsCountersSnapshot,
} from '../../dns/index.ts';
import { startDnsWorkers, type DnsWorkers } from '../../dns/index.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import { dnsConfig, type DnsSettings } from '../../modules/dns/index.ts';
import type { Config } from '../../kernel/config/config.ts';
import type { MetricsRegistry } from '../../kernel/metrics/metrics-registry.ts';
import {
  DNS_COUNTERS_REQUEST,
  SIGHUP_BROADCAST,
  isDnsWorkerCounters,
  type DnsWorkerZoneOptions,
} from './dns-worker-zones.ts';
import type { RuntimeOptions } from '../../kernel/runtime/open-runtime.ts';

/** How long a scrape waits for the workers' counters; a late worker counts with its last reply. */
export const WORKER_COUNTERS_TIMEOUT_MS = 1_000;

/** Set by tools/bundle.mjs to dist/ when this code runs bundled (`npm start`); absent under tsx. */
declare const __PRODUCT_BUNDLE_DIR__: string | undefined;
const BUNDLE_DIR = typeof __PRODUCT_BUNDLE_DIR__ === 'string' ? __PRODUCT_BUNDLE_DIR__ : null;

/** The script each worker runs (cluster exec): the bundle's worker, or the source under tsx. */
const WORKER_ENTRY =
  BUNDLE_DIR !== null
    ? path.join(BUNDLE_DIR, 'dns-worker.js')
    : fileURLToPath(new URL('./dns-worker-entry.ts', import.meta.url));

/** How many DNS workers this configuration runs, and why none when it asked for some. */
export function dnsWorkerPlan(
  config: Pick<Config, 'databaseUrl' | 'redisUrl'> & Pick<DnsSettings, 'dnsWorkers'>,
  cores: () => number = availableParallelism,
): { readonly workers: number; readonly inProcessBecause: string | null } {
  const asked = config.dnsWorkers === 'auto' ? cores() : config.dnsWorkers;
  if (asked === 0) return { workers: 0, inProcessBecause: null };
  if (config.databaseUrl === null) {
    return {
      workers: 0,
      inProcessBecause: 'the embedded database (no DATABASE_URL) serves one process only',
    };
  }
  if (config.redisUrl === null) {
    return {
      workers: 0,
      inProcessBecause: 'the in-process bus (no REDIS_URL) does not reach other processes',
    };
  }
  return { workers: asked, inProcessBecause: null };
}

export interface DnsWorkerRole {
  readonly port: number;
  readonly workers: DnsWorkers;
  /** Ready: every worker reported ready at start, and at least one is alive. */
  ready(): boolean;
  /** Asks every worker for its counters and loads their sum into the role's DnsCounters. */
  gather(): Promise<void>;
  /** Zones loaded, as the workers last reported (the largest count: they all load the same). */
  zoneCount(): number;
  /** Queries answered per worker index (live process plus those it replaced), as last gathered. */
  queriesByWorker(): ReadonlyMap<number, number>;
  /** SIGHUP: passed on to every worker (nothing reloads; zones follow the bus). */
  hangUp(): void;
  stop(): Promise<void>;
}

/**
 * Forks `workers` DNS workers and resolves once all of them listen. `counters` is the merged view
 * the metrics read (filled by `gather`).
 */
export async function startDnsWorkerRole(
  ctx: Runtime,
  workers: number,
  counters: DnsCounters,
  runtime: RuntimeOptions = {},
): Promise<DnsWorkerRole> {
  const { log } = ctx;
  const config = ctx.config.section(dnsConfig);
  const zoneOptions: DnsWorkerZoneOptions = {
    env: ctx.config.env,
    ...(runtime.databaseSchema !== undefined ? { databaseSchema: runtime.databaseSchema } : {}),
    ...(runtime.busPrefix !== undefined ? { busPrefix: runtime.busPrefix } : {}),
  };
  // Workers of the source must load .ts: a tsx start passes its loader in execArgv, a test runner
  // may not. The bundle's workers are plain JavaScript.
  const execArgv =
    BUNDLE_DIR !== null || process.execArgv.some((a) => a.includes('tsx'))
      ? process.execArgv
      : [...process.execArgv, '--import', 'tsx'];
  const dns = await startDnsWorkers({
    host: config.dnsHost,
    port: config.dnsPort,
    workerEntry: WORKER_ENTRY,
    zoneOptions,
    workers,
    // Each worker builds its limiter (counted) in the pipeline; these options are unused.
    rrl: null,
    nativeUdp: config.dnsNativeUdp,
    execArgv,
    onWorkerEvent(event) {
      if (event.type === 'ready') {
        log.info({ worker: event.index, workerPid: event.pid }, 'DNS worker listening');
      } else if (event.restartInMs !== null) {
        const { index, pid, code, signal, restartInMs } = event;
        log.warn(
          { worker: index, workerPid: pid, code, signal, restartInMs },
          'DNS worker died, replacing it',
        );
      } else {
        log.debug({ worker: event.index, workerPid: event.pid, code: event.code }, 'DNS worker exited');
      }
    },
  });
  log.info({ host: config.dnsHost, workers, port: dns.port }, 'DNS listening');

  // Counters stay monotonic across restarts: a dead worker's last reply moves to `retired`.
  const retired: DnsCountersSnapshot = emptySnapshot(counters);
  const retiredQueries = new Map<number, number>();
  const live = new Map<number, { index: number; counters: DnsCountersSnapshot }>();
  let zones = 0;
  let gathering: Promise<void> | null = null;

  async function gatherOnce(): Promise<void> {
    const replies = await dns.request(DNS_COUNTERS_REQUEST, WORKER_COUNTERS_TIMEOUT_MS);
    const aliveIds = new Set(replies.map((r) => r.id));
    for (const [id, last] of live) {
      if (aliveIds.has(id)) continue;
      addSnapshot(retired, last.counters);
      const total = snapshotQueryTotal(last.counters);
      retiredQueries.set(last.index, (retiredQueries.get(last.index) ?? 0) + total);
      live.delete(id);
    }
    let replied = 0;
    let maxZones = 0;
    for (const r of replies) {
      if (!isDnsWorkerCounters(r.reply)) continue;
      live.set(r.id, { index: r.index, counters: r.reply.counters });
      maxZones = Math.max(maxZones, r.reply.zones);
      replied++;
    }
    if (replied > 0) zones = maxZones;
    loadMergedCounters(counters, [retired, ...[...live.values()].map((l) => l.counters)]);
  }

  return {
    port: dns.port,
    workers: dns,
    ready: () => dns.workerCount() > 0,
    gather() {
      // One gather at a time: concurrent scrapes share it (and never apply an older reply last).
      gathering ??= gatherOnce().finally(() => (gathering = null));
      return gathering;
    },
    zoneCount: () => zones,
    queriesByWorker() {
      const out = new Map(retiredQueries);
      for (const l of live.values()) {
        out.set(l.index, (out.get(l.index) ?? 0) + snapshotQueryTotal(l.counters));
      }
      return out;
    },
    hangUp: () => dns.broadcast(SIGHUP_BROADCAST),
    stop: () => dns.close(),
  };
}

/** dns_workers, dns_worker_restarts_total and dns_worker_queries_total; gathers before each scrape. */
export function registerDnsWorkerMetrics(registry: MetricsRegistry, role: () => DnsWorkerRole | null): void {
  const alive = registry.gauge('dns_workers', 'DNS worker processes alive.');
  const restarts = registry.counter(
    'dns_worker_restarts_total',
    'DNS worker processes forked to replace one that died.',
  );
  const perWorker = registry.counter(
    'dns_worker_queries_total',
    'DNS queries answered by the worker of this index (counting the processes it replaced).',
    ['worker'],
  );
  registry.beforeCollect(async () => {
    await role()?.gather();
  });
  registry.onCollect(() => {
    const r = role();
    alive.set(r?.workers.workerCount() ?? 0);
    restarts.set(r?.workers.restartCount() ?? 0);
    for (const [index, n] of r?.queriesByWorker() ?? []) perWorker.set(n, { worker: String(index) });
  });
}
