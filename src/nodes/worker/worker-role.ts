import { databaseAnswers } from '../../kernel/db/database-ping.ts';
import type { Readiness } from '../../kernel/ops/readiness.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import { createDeliveryEngine } from '../../modules/webhooks/index.ts';

export interface WorkerRole {
  stop(): Promise<void>;
}

/**
 * The worker role (ROLE=worker): the outbox's delivery engine alone, ready while the database
 * answers. (The api role runs the engine too.)
 */
export function startWorkerRole(runtime: Runtime, readiness: Readiness): WorkerRole {
  const { engine } = createDeliveryEngine(runtime);
  readiness.set('database', () => databaseAnswers(runtime.database));
  engine.start();
  return { stop: () => engine.stop() };
}
