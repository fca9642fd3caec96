import { startDnsServer } from '../../dns/index.ts';
import { createMessageHandlerWithContext } from '../../dns/index.ts';
import { createDnsCounters, type DnsCounters } from '../../dns/index.ts';
import type { DnsHandler, DnsSlotHandler } from '../../dns/index.ts';
import { createQueryStats, type QueryStats } from '../../dns/index.ts';
import { createResponseRateLimiter, type ResponseRateLimiter } from '../../dns/index.ts';
import { MemberHealthTable } from '../../dns/index.ts';
import { createTransferHandler, type TransferHandler } from '../../dns/index.ts';
import { TransferZones } from '../../dns/index.ts';
import { chaosIdentity, ServerCookies, ZoneStore } from '../../dns/index.ts';
import { openIpLocator } from '../../geo/ip-locator.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import { createDnsPublishing, dnsConfig } from '../../modules/dns/index.ts';
import { createLoadBalancingPublishing } from '../../modules/load-balancing/index.ts';
import { cookieMasterSecret } from './cookie-secret.ts';
import { HealthSnapshotFile } from './health-snapshot-file.ts';
import { MemberHealthSync } from './member-health-sync.ts';
import { SnapshotFile } from './snapshot-file.ts';
import { ZoneSync } from './zone-sync.ts';

export interface DnsRole {
  readonly udpPort: number;
  readonly tcpPort: number;
  readonly store: ZoneStore;
  readonly sync: ZoneSync;
  /** Member health as this node knows it: seeded from the database, then kept by the bus. */
  readonly healthTable: MemberHealthTable;
  stop(): Promise<void>;
}

export interface DnsPipelineOptions {
  /**
   * Keep DATA_DIR's snapshot file current (default true). With several DNS workers only worker 0
   * writes it; every worker still reads it as the cold-start fallback.
   */
  readonly writeSnapshot?: boolean;
  /** The part of RRL_RATE this process allows (DnsWorkerIdentity.rrlShare); default 1. */
  readonly rrlShare?: number;
}

/** What serves queries, ready to hand to a DNS server (in this process or in a cluster worker). */
export interface DnsPipeline {
  readonly store: ZoneStore;
  readonly sync: ZoneSync;
  readonly healthTable: MemberHealthTable;
  readonly handler: DnsHandler;
  /** The UDP batch entry of the same handler, through the answer cache. */
  readonly slotHandler: DnsSlotHandler;
  readonly rrl: ResponseRateLimiter;
  readonly stats: QueryStats;
  readonly transfer: TransferHandler;
  /** Stops the zone, health and stats work and flushes the snapshot file; call after the server closes. */
  stop(): Promise<void>;
}

/**
 * The zone pipeline of a DNS node: zones from the database into a store, kept current from the
 * bus (with the snapshot file as fallback), member health, GeoIP, query stats to the bus, RRL and
 * zone transfers — counted in `counters`. Resolves once the zones are in the store.
 */
export async function buildDnsPipeline(
  runtime: Runtime,
  counters: DnsCounters,
  options: DnsPipelineOptions = {},
): Promise<DnsPipeline> {
  const settings = runtime.config.section(dnsConfig);
  const { config, log, clock } = runtime;
  const loadBalancing = createLoadBalancingPublishing(runtime);
  const dns = createDnsPublishing(runtime, loadBalancing.steering);
  const store = counters.trackStore(new ZoneStore());
  // Zone transfers out: transferred zones kept beside the store.
  const transferZones = new TransferZones();
  // Serving through outages: the zones served, on disk for a start while the database is down.
  const snapshot = SnapshotFile.inDir(config.dataDir, {
    keys: { sealer: runtime.sealer, context: dns.keyContext },
    onError: (error) => log.warn({ err: error }, 'DNS snapshot file not written'),
  });
  const writeSnapshot = options.writeSnapshot ?? true;
  const sync = new ZoneSync(
    store,
    dns.zones,
    (handler) => dns.onZoneChanged(handler),
    log,
    writeSnapshot ? [transferZones, snapshot] : [transferZones],
    {
      serials: () => dns.serials(),
      fallback: () => snapshot.read(),
      busLive: () => runtime.bus.subscriptionsLive?.() ?? true,
      observeBusLag: (seconds) => counters.observeBusLag(seconds),
      onZoneReload: (scope) => {
        if (scope === 'names') counters.zoneReloadsNames++;
        else counters.zoneReloadsWhole++;
      },
    },
  );
  const healthTable = new MemberHealthTable();
  // Without a readable GeoIP database, resolver_ip steering places no client (default pools answer).
  const locating = openIpLocator(settings.geoipDb).catch((error: unknown) => {
    log.warn({ err: error, path: settings.geoipDb }, 'GeoIP database not available');
    return undefined;
  });
  // Member health: from the database, kept on disk beside the zones; with the database down at
  // start, the health last known (the file), else every member counts as healthy.
  const healthFile = HealthSnapshotFile.inDir(config.dataDir, {
    onError: (error) => log.warn({ err: error }, 'DNS health snapshot file not written'),
  });
  const healthSync = new MemberHealthSync(
    healthTable,
    () => loadBalancing.memberHealth(),
    (handler) => loadBalancing.onMemberHealthChanged(handler),
    { ...(writeSnapshot ? { mirror: healthFile } : {}), fallback: () => healthFile.read() },
  );
  // Zones and member health are read side by side: a database that does not answer costs one
  // start wait (START_DATABASE_WAIT_MS), not one per read.
  const [, , locator] = await Promise.all([
    sync.start(),
    healthSync.start().then(
      (from) => {
        if (from === 'fallback') log.warn('member health from the snapshot file: database unreachable');
      },
      (error: unknown) => log.warn({ err: error }, 'member health not loaded: database unreachable'),
    ),
    locating,
  ]);
  const stats = createQueryStats({ sink: dns.statsSink, now: () => clock.now() });
  stats.start();
  // TCP transfers go to the listener; IXFR over UDP is answered by the message handler.
  const transfer = createTransferHandler({ zones: transferZones, history: dns.transferHistory });
  const handlers = createMessageHandlerWithContext(store, {
    health: healthTable,
    pop: settings.pop,
    locator,
    transfer,
    nsid: settings.dnsNsid === '' ? null : new TextEncoder().encode(settings.dnsNsid),
    chaos: chaosIdentity(settings.dnsIdentity, settings.dnsVersion),
    lbAnswers: counters.lbAnswers,
    cookies: settings.dnsCookies
      ? new ServerCookies(cookieMasterSecret(settings.dnsCookieSecret, config.dataDir))
      : null,
    answerCache: { bytes: settings.dnsAnswerCacheBytes, counters },
  });
  return {
    store,
    sync,
    healthTable,
    handler: counters.wrapHandler(handlers.handle),
    slotHandler: counters.wrapSlotHandler(handlers.handleSlot),
    rrl: counters.wrapLimiter(
      createResponseRateLimiter({
        rate: settings.rrlRate * (options.rrlShare ?? 1),
        exempt: settings.rrlExempt,
      }),
    ),
    stats,
    transfer,
    async stop() {
      await healthSync.stop();
      stats.stop();
      await sync.stop();
      // close: flushes (when this process writes it) and lets the file held open go.
      await Promise.all([snapshot.close(), writeSnapshot ? healthFile.flush() : undefined]);
    },
  };
}

/** The DNS role in this process: the pipeline served on DNS_HOST:DNS_PORT. */
export async function startDnsRole(
  runtime: Runtime,
  counters: DnsCounters = createDnsCounters(),
): Promise<DnsRole> {
  const settings = runtime.config.section(dnsConfig);
  const pipeline = await buildDnsPipeline(runtime, counters);
  const server = await startDnsServer({
    host: settings.dnsHost,
    port: settings.dnsPort,
    handler: pipeline.handler,
    slotHandler: pipeline.slotHandler,
    rrl: pipeline.rrl,
    stats: pipeline.stats,
    nativeUdp: settings.dnsNativeUdp,
    transfer: pipeline.transfer,
  }).catch(async (error: unknown) => {
    await pipeline.stop();
    throw error;
  });
  runtime.log.info({ host: settings.dnsHost, port: server.udpPort }, 'DNS listening');
  return {
    udpPort: server.udpPort,
    tcpPort: server.tcpPort,
    store: pipeline.store,
    sync: pipeline.sync,
    healthTable: pipeline.healthTable,
    async stop() {
      await server.close();
      await pipeline.stop();
    },
  };
}
