import { loadConfig } from '../kernel/config/load-config.ts';
import { createLogger } from '../kernel/log/logger.ts';
import { closeRuntime, openRuntime } from '../kernel/runtime/open-runtime.ts';
import { reactivateOrganization } from '../modules/orgs/index.ts';
import { loadEnvFile } from './env-file.ts';
import { CONFIG_SECTIONS } from './platform-modules.ts';

/**
 * `npm run org -- reactivate <slug>`: platform staff's commands on organizations, against the
 * configured database (DATABASE_URL, or the embedded one in DATA_DIR: stop `npm start` first).
 */
const USAGE = 'usage: npm run org -- reactivate <slug>';

const [command, slug] = process.argv.slice(2);
if (command !== 'reactivate' || slug === undefined) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
// The same .env as `npm start`, so both reach the same database.
loadEnvFile();
const config = loadConfig(process.env, CONFIG_SECTIONS);
const runtime = await openRuntime(config, createLogger('warn'));
try {
  process.stdout.write(`${await reactivateOrganization(runtime, slug)}\n`);
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await closeRuntime(runtime);
}
