import type { Kysely } from 'kysely';
import type { Bus } from '../events/bus.ts';
import type { Clock } from '../clock.ts';
import type { Config } from '../config/config.ts';
import type { ConfigSection } from '../config/config-section.ts';
import type { Sealer } from '../crypto/sealing.ts';
import { unitOfWorkRunner, type UnitOfWorkRunner } from '../db/unit-of-work.ts';
import type { EventBus } from '../events/domain-events.ts';
import type { AuditLog } from '../audit/audit-log.ts';
import type { BudgetEngine } from '../limits/budget-engine.ts';
import type { Logger } from '../log/logger.ts';
import type { MailPort } from '../mail/mail-port.ts';
import type { MetricsRegistry } from '../metrics/metrics-registry.ts';
import { tablesOf, type Runtime } from '../runtime/runtime.ts';

/**
 * What a module's code receives: the runtime narrowed to the module — its own tables, its own
 * settings section, a logger that names it, and the unit-of-work runner over its tables.
 */
export interface ModuleContext<Tables, Settings = undefined> {
  readonly name: string;
  readonly config: Config;
  readonly settings: Settings;
  readonly db: Kysely<Tables>;
  readonly bus: Bus;
  readonly events: EventBus;
  readonly clock: Clock;
  readonly log: Logger;
  readonly sealer: Sealer;
  readonly mail: MailPort;
  readonly audit: AuditLog;
  readonly budgets: BudgetEngine;
  readonly metrics: MetricsRegistry;
  /** Runs a multi-row change in one transaction, with its events and after-commit work. */
  readonly transaction: UnitOfWorkRunner<Tables>;
}

export function moduleContext<Tables, Settings = undefined>(
  runtime: Runtime,
  name: string,
  section?: ConfigSection<Settings>,
): ModuleContext<Tables, Settings> {
  const db = tablesOf<Tables>(runtime);
  const log = runtime.log.child({ module: name });
  return {
    name,
    config: runtime.config,
    settings: (section !== undefined ? runtime.config.section(section) : undefined) as Settings,
    db,
    bus: runtime.bus,
    events: runtime.events,
    clock: runtime.clock,
    log,
    sealer: runtime.sealer,
    mail: runtime.mail,
    audit: runtime.audit,
    budgets: runtime.budgets,
    metrics: runtime.metrics,
    transaction: unitOfWorkRunner(db, runtime.events, log, runtime.clock),
  };
}
