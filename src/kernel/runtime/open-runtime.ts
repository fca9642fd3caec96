import type { Kysely } from 'kysely';
import { AuditLog, type AuditTables } from '../audit/audit-log.ts';
import { openBus } from '../events/open-bus.ts';
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
import { openMigratedInMemory } from '../db/in-memory-template.ts';
import { databaseAnswers } from '../db/database-ping.ts';
import type { Database } from '../db/database.ts';
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
  /** Tests: how the outbound client resolves names (default: the system resolver). */
  readonly outboundResolve?: (hostname: string) => Promise<string[]>;
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
    // A DNS worker's schema exists: the primary made it (or serves the snapshot file without it).
    ...(options.dnsWorker === true ? { createSchema: false } : {}),
  };
  // A DNS-only or edge-only node can serve its snapshot file while PostgreSQL is down: start without it.
  const servesSnapshot = config.role === 'dns' || config.role === 'edge' || options.dnsWorker === true;
  const tolerant = servesSnapshot && config.databaseUrl !== null;
  let database: Database<NoTables>;
  for (let attempt = 1; ; attempt++) {
    try {
      database =
        databaseOptions.url === null && databaseOptions.dataDir === null
          ? await openMigratedInMemory<NoTables>()
          : await openDatabase<NoTables>(databaseOptions);
      break;
    } catch (error) {
      if (tolerant) {
        log.warn({ err: error }, 'database unreachable at start');
        database = await openDatabase<NoTables>({ ...databaseOptions, createSchema: false });
        break;
      }
      // Any other role waits for PostgreSQL instead of exiting (a supervisor would only restart
      // it into the same wall): /readyz answers 503 meanwhile. The embedded database has no outage.
      if (config.databaseUrl === null) throw error;
      const delayMs = startRetryDelayMs(attempt);
      log.warn({ err: error, attempt, retryInMs: delayMs }, 'database unreachable at start, retrying');
      await new Promise((r) => setTimeout(r, delayMs));
    }
  }
  // A DNS worker skips them: the primary applied them before it forked the worker. A DNS node
  // waits for them while the database answers; one that does not answer (each attempt would last
  // the connection timeout) gets a short while only: the node serves its snapshot file, and the
  // check goes on in the background.
  if (options.dnsWorker !== true && tolerant) {
    const applying = migrate(database).then(
      (applied) => {
        if (applied.length > 0) log.info({ migrations: applied }, 'migrations applied');
        return true;
      },
      (error: unknown) => {
        log.warn({ err: error }, 'migrations not checked: database unreachable');
        return true;
      },
    );
    // Asked beside the migrations: a database that answers is waited for (migrations may take
    // longer than the wait on a new database, and the node reads their tables).
    const answers = databaseAnswers(database).then(
      () => true,
      () => false,
    );
    const settled = await within(
      Promise.race([applying, answers.then((ok) => (ok ? true : new Promise<boolean>(() => undefined)))]),
      TOLERANT_START_WAIT_MS,
    );
    if (settled) await applying;
    else log.warn('migrations not checked yet: database not answering');
  } else if (options.dnsWorker !== true) {
    for (let attempt = 1; ; attempt++) {
      try {
        const applied = await migrate(database);
        if (applied.length > 0) log.info({ migrations: applied }, 'migrations applied');
        break;
      } catch (error) {
        if (config.databaseUrl === null || !(await unreachable(database))) throw error;
        const delayMs = startRetryDelayMs(attempt);
        log.warn({ err: error, attempt, retryInMs: delayMs }, 'database unreachable at start, retrying');
        await new Promise((r) => setTimeout(r, delayMs));
      }
    }
  }
  const bus = openBus(config.redisUrl, clock, options.busPrefix ?? config.busPrefix);
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
      ...(options.outboundResolve !== undefined ? { resolve: options.outboundResolve } : {}),
    }),
  };
}

/** How long a DNS node's start waits on a database that may not answer. */
export const TOLERANT_START_WAIT_MS = 250;

/** Whether `promise` resolved true within `ms` (false when late). */
async function within(promise: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** 1 s, 2 s, 4 s … then every 30 s: how long a starting process waits between two tries. */
export function startRetryDelayMs(attempt: number): number {
  return Math.min(30_000, 1_000 * 2 ** Math.min(attempt - 1, 5));
}

/** Whether a failure was the server's absence (retry) rather than a migration's own error (exit). */
async function unreachable(database: Database<NoTables>): Promise<boolean> {
  try {
    await databaseAnswers(database);
    return false;
  } catch {
    return true;
  }
}

export async function closeRuntime(runtime: Runtime): Promise<void> {
  await runtime.outbound.close();
  await runtime.bus.close();
  await runtime.database.close();
}
