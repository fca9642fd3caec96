import type { Kysely } from 'kysely';
import { AuditLog, type AuditTables } from '../audit/audit-log.ts';
import { openBus } from '../bus/open-bus.ts';
import { BudgetEngine } from '../limits/budget-engine.ts';
import { createMailPort, type MailPort } from '../mail/mail-port.ts';
import { MetricsRegistry } from '../metrics/metrics-registry.ts';
import { OutboundClient } from '../outbound/guarded-client.ts';
import { classifyAddress, isAllowedTarget } from '../../net/address-class.ts';
import { systemClock, type Clock } from '../clock.ts';
import type { Config } from '../config/config.ts';
import { sealerFromConfig } from '../crypto/sealing.ts';
import { migrate } from '../db/run-migrations.ts';
import { openDatabase } from '../db/open-database.ts';
import { eventBus } from '../events/domain-events.ts';
import type { Logger } from '../log/logger.ts';
import type { NoTables, Runtime } from './runtime.ts';

export interface RuntimeOptions {
  readonly clock?: Clock;
  /** Tests: keep the embedded database in memory instead of DATA_DIR. */
  readonly inMemoryDatabase?: boolean;
  /** Tests: a PostgreSQL schema of their own. */
  readonly databaseSchema?: string;
  /** Tests: a Redis key/channel prefix of their own. */
  readonly busPrefix?: string;
  /** Connections in the PostgreSQL pool (default 10; a DNS worker needs few). */
  readonly databasePoolSize?: number;
  /**
   * A DNS cluster worker: it neither applies migrations (the primary did) nor needs the database
   * to start (it can serve the snapshot file), whatever the role.
   */
  readonly dnsWorker?: boolean;
  /** Tests: where transactional mail goes instead of SMTP_URL or DATA_DIR/mail. */
  readonly mail?: MailPort;
  /** The process's metrics registry (the node's, so /metrics shows every module's series). */
  readonly metrics?: MetricsRegistry;
}

/** Opens storage and the bus, applies migrations: what every role needs before it serves. */
export async function openRuntime(
  config: Config,
  log: Logger,
  options: RuntimeOptions = {},
): Promise<Runtime> {
  const clock = options.clock ?? systemClock;
  const databaseOptions = {
    url: config.databaseUrl,
    dataDir: options.inMemoryDatabase ? null : config.dataDir,
    ...(options.databaseSchema !== undefined
      ? { schema: options.databaseSchema }
      : config.databaseSchema !== null
        ? { schema: config.databaseSchema }
        : {}),
    ...(options.databasePoolSize !== undefined ? { poolSize: options.databasePoolSize } : {}),
  };
  // A DNS-only node can serve its snapshot file while PostgreSQL is down: start without it.
  const tolerant = (config.role === 'dns' || options.dnsWorker === true) && config.databaseUrl !== null;
  const database = await openDatabase<NoTables>(databaseOptions).catch(async (error: unknown) => {
    if (!tolerant) throw error;
    log.warn({ err: error }, 'database unreachable at start');
    return openDatabase<NoTables>({ ...databaseOptions, createSchema: false });
  });
  // A DNS worker skips them: the primary applied them before it forked the worker.
  if (options.dnsWorker !== true) {
    try {
      const applied = await migrate(database);
      if (applied.length > 0) log.info({ migrations: applied }, 'migrations applied');
    } catch (error) {
      if (!tolerant) throw error;
      // Migrations are the API's to apply; this node only reads.
      log.warn({ err: error }, 'migrations not checked: database unreachable');
    }
  }
  const bus = openBus(config.redisUrl, clock, options.busPrefix ?? '');
  return {
    config,
    database,
    bus,
    events: eventBus(bus),
    clock,
    log,
    sealer: sealerFromConfig(config),
    mail:
      options.mail ??
      createMailPort({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log }),
    audit: new AuditLog(database.db as unknown as Kysely<AuditTables>, clock, log),
    budgets: new BudgetEngine(bus, clock),
    metrics: options.metrics ?? new MetricsRegistry(),
    outbound: new OutboundClient({
      // The one address classifier (src/net/): no private, loopback or reserved destination.
      isAllowedAddress: (address) => {
        const cls = classifyAddress(address);
        return cls !== null && isAllowedTarget(cls, config.outboundAllowPrivateTargets);
      },
      allowHttp: config.outboundAllowHttp,
      caFile: config.outboundCaFile,
    }),
  };
}

export async function closeRuntime(runtime: Runtime): Promise<void> {
  await runtime.outbound.close();
  await runtime.bus.close();
  await runtime.database.close();
}
