import type { Kysely } from 'kysely';
import type { Bus } from '../events/bus.ts';
import type { Clock } from '../clock.ts';
import type { Config } from '../config/config.ts';
import type { Sealer } from '../crypto/sealing.ts';
import type { Database } from '../db/database.ts';
import type { EventBus } from '../events/domain-events.ts';
import type { AuditLog } from '../audit/audit-log.ts';
import type { BudgetEngine } from '../limits/budget-engine.ts';
import type { Logger } from '../log/logger.ts';
import type { MailPort } from '../mail/mail-port.ts';
import type { MetricsRegistry } from '../metrics/metrics-registry.ts';
import type { OutboundClient } from '../outbound/guarded-client.ts';

/** No tables: each module sees the database through its own tables (moduleContext). */
export type NoTables = Record<never, never>;

/**
 * What one process opens once and every module and role shares: configuration, storage, the bus
 * and its typed events, the clock, the logger, the sealing of secrets, transactional mail, the
 * audit writer and the per-action budgets.
 */
export interface Runtime {
  readonly config: Config;
  readonly database: Database<NoTables>;
  readonly bus: Bus;
  readonly events: EventBus;
  readonly clock: Clock;
  readonly log: Logger;
  readonly sealer: Sealer;
  /** Transactional mail (password reset, notices). */
  readonly mail: MailPort;
  /** The audit writer (and reader of organizations' audit logs). */
  readonly audit: AuditLog;
  /** The per-action budgets (docs/keys-and-limits.md, "Per-action budgets"). */
  readonly budgets: BudgetEngine;
  /** This process's metrics (GET /metrics). */
  readonly metrics: MetricsRegistry;
  /** The guarded outbound HTTP client (webhooks, callbacks). */
  readonly outbound: OutboundClient;
}

/**
 * The runtime's database seen through `Tables` (each module names only its own): the one place a
 * table type is attached to the shared connection.
 */
export function tablesOf<Tables>(runtime: Runtime): Kysely<Tables> {
  return runtime.database.db as unknown as Kysely<Tables>;
}
