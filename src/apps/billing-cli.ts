import { AccessTokens } from '../kernel/auth/access-token.ts';
import { AuthLayer } from '../kernel/auth/auth-layer.ts';
import { resolveAuthSecret } from '../kernel/auth/auth-secret.ts';
import { loadConfig } from '../kernel/config/load-config.ts';
import { createLogger } from '../kernel/log/logger.ts';
import { closeRuntime, openRuntime } from '../kernel/runtime/open-runtime.ts';
import type { BillingModule } from '../modules/billing/index.ts';
import { loadEnvFile } from './env-file.ts';
import { CONFIG_SECTIONS, platformModules } from './platform-modules.ts';

/**
 * `npm run billing -- run --as-of <ISO date>`: the daily billing run for that day (UTC), against
 * the configured database (DATABASE_URL, or the embedded one in DATA_DIR: stop `npm start` first).
 * A day already run does nothing; the scheduler of a running deployment calls the same code.
 */
const USAGE = 'usage: npm run billing -- run --as-of <ISO date, e.g. 2026-02-03>';

const [command, flag, value] = process.argv.slice(2);
const asOf = value !== undefined && /^\d{4}-\d{2}-\d{2}/.test(value) ? new Date(value) : null;
if (command !== 'run' || flag !== '--as-of' || asOf === null || Number.isNaN(asOf.getTime())) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
// The same .env as `npm start`, so both reach the same database.
loadEnvFile();
const config = loadConfig(process.env, CONFIG_SECTIONS);
const runtime = await openRuntime(config, createLogger('warn'));
try {
  // The modules as the api role makes them (the services' provisioners release what a terminated service held).
  const tokens = new AccessTokens(resolveAuthSecret(config.authSecret, config.dataDir));
  const modules = platformModules(runtime, { tokens, auth: new AuthLayer(tokens, runtime.clock) });
  const billing = modules.find((m) => m.name === 'billing') as BillingModule;
  process.stdout.write(`${JSON.stringify(await billing.runDay(asOf))}\n`);
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await closeRuntime(runtime);
}
