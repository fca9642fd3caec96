import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Bus } from './bus/bus.ts';
import type { Clock } from './clock.ts';
import type { Config } from './config/config.ts';
import type { Database } from './db/database.ts';
import type { Logger } from './log/logger.ts';

/** What every control-plane module receives; modules narrow `db` to their own tables. */
export interface AppContext {
  readonly config: Config;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each module adds its tables with withTables<>()
  readonly db: Kysely<any>;
  readonly database: Database<unknown>;
  readonly bus: Bus;
  readonly clock: Clock;
  readonly log: Logger;
}

/** A control-plane module: owns its routes, schemas, service logic and tables. */
export interface Module {
  readonly name: string;
  register(app: FastifyInstance, ctx: AppContext): Promise<void> | void;
  /** Work to do once the database is migrated, before serving (e.g. syncing reference data). */
  start?(ctx: AppContext): Promise<void>;
  stop?(): Promise<void>;
}
