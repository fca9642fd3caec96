/**
 * The zone module of the DNS cluster workers (see src/dns/server/dns-workers.ts): inside each
 * worker it opens a runtime of its own (a small PostgreSQL pool, its own Redis connections) and
 * builds the same pipeline as the in-process DNS role (buildDnsPipeline), counted in a DnsCounters
 * of its own that the primary gathers on every scrape (DNS_COUNTERS_REQUEST).
 */
import { createDnsCounters } from '../../dns/index.ts';
import { snapshotCounters, type DnsCountersSnapshot } from '../../dns/index.ts';
import type { DnsWorkerIdentity, DnsWorkerZones } from '../../dns/index.ts';
import { loadConfig } from '../../kernel/config/load-config.ts';
import { dnsConfig } from '../../modules/dns/index.ts';
import { loadBalancingConfig } from '../../modules/load-balancing/index.ts';
import { createLogger } from '../../kernel/log/logger.ts';
import { buildDnsPipeline } from './dns-role.ts';
import { closeRuntime, openRuntime } from '../../kernel/runtime/open-runtime.ts';

/** Connections each worker's PostgreSQL pool may open: zone reloads and resyncs, one at a time. */
export const DNS_WORKER_POOL_SIZE = 2;

/** What the primary hands every worker (JSON, through the worker's environment). */
export interface DnsWorkerZoneOptions {
  /**
   * The variables the primary's configuration was read from (without the API's token key, which
   * workers never use): each worker loads and validates the same configuration from them.
   */
  readonly env: Readonly<Record<string, string>>;
  /** The primary's database schema and bus prefix (tests isolate themselves with them). */
  readonly databaseSchema?: string;
  readonly busPrefix?: string;
}

/** Primary → worker requests and broadcasts. */
export const DNS_COUNTERS_REQUEST = { dnsCounters: true } as const;
export const SIGHUP_BROADCAST = { signal: 'SIGHUP' } as const;

/** A worker's answer to DNS_COUNTERS_REQUEST. */
export interface DnsWorkerCounters {
  readonly counters: DnsCountersSnapshot;
  readonly zones: number;
}

export function isDnsWorkerCounters(reply: unknown): reply is DnsWorkerCounters {
  return (
    typeof reply === 'object' &&
    reply !== null &&
    typeof (reply as DnsWorkerCounters).counters === 'object' &&
    typeof (reply as DnsWorkerCounters).zones === 'number'
  );
}

export async function loadZones(options: unknown, worker: DnsWorkerIdentity): Promise<DnsWorkerZones> {
  const o = options as DnsWorkerZoneOptions;
  const config = loadConfig(o.env, [dnsConfig, loadBalancingConfig]);
  const log = createLogger(config.logLevel).child({ dnsWorker: worker.index });
  const ctx = await openRuntime(config, log, {
    dnsWorker: true,
    databasePoolSize: DNS_WORKER_POOL_SIZE,
    ...(o.databaseSchema !== undefined ? { databaseSchema: o.databaseSchema } : {}),
    ...(o.busPrefix !== undefined ? { busPrefix: o.busPrefix } : {}),
  });
  const counters = createDnsCounters();
  const pipeline = await buildDnsPipeline(ctx, counters, {
    writeSnapshot: worker.index === 0,
    rrlShare: worker.rrlShare,
  }).catch(async (error: unknown) => {
    await closeRuntime(ctx);
    throw error;
  });
  return {
    store: pipeline.store,
    stats: pipeline.stats,
    handler: pipeline.handler,
    slotHandler: pipeline.slotHandler,
    rrl: pipeline.rrl,
    transfer: pipeline.transfer,
    onMessage(message) {
      if ((message as { signal?: unknown }).signal === SIGHUP_BROADCAST.signal) {
        log.debug({ signal: 'SIGHUP' }, 'reload not needed: zones follow the bus');
      }
    },
    onRequest(message): DnsWorkerCounters | undefined {
      if ((message as { dnsCounters?: unknown }).dnsCounters !== true) return undefined;
      return { counters: snapshotCounters(counters), zones: pipeline.store.size };
    },
    async close() {
      try {
        await pipeline.stop();
      } finally {
        await closeRuntime(ctx);
      }
    },
  };
}
