import { AccessTokens } from '../kernel/auth/access-token.ts';
import { AuthLayer } from '../kernel/auth/auth-layer.ts';
import { resolveAuthSecret } from '../kernel/auth/auth-secret.ts';
import { loadConfig } from '../kernel/config/load-config.ts';
import { createLogger } from '../kernel/log/logger.ts';
import type { PlatformModule } from '../kernel/module/platform-module.ts';
import { closeRuntime, openRuntime } from '../kernel/runtime/open-runtime.ts';
import type { Runtime } from '../kernel/runtime/runtime.ts';
import { loadEnvFile } from './env-file.ts';
import { CONFIG_SECTIONS, platformModules } from './platform-modules.ts';

/** A command line that is not one of the command's forms: its usage, exit code 2. */
export function exitWithUsage(usage: string): never {
  process.stderr.write(`${usage}\n`);
  process.exit(2);
}

/**
 * What every operator command (`npm run billing|org|dns|catalog -- ...`) does around its work: the
 * same .env as `npm start`, so both reach the same database (DATABASE_URL, or the embedded one in
 * DATA_DIR: stop `npm start` first); a runtime that logs warnings only; the work's answer on stdout;
 * a failure's message on stderr with exit code 1; the runtime closed whatever happens.
 */
export async function runCliCommand(
  work: (runtime: Runtime) => Promise<string>,
  messageOf: (error: unknown) => string = (error) => (error instanceof Error ? error.message : String(error)),
): Promise<void> {
  loadEnvFile();
  const config = loadConfig(process.env, CONFIG_SECTIONS);
  const runtime = await openRuntime(config, createLogger('warn'));
  try {
    const answer = await work(runtime);
    if (answer !== '') process.stdout.write(`${answer}\n`);
  } catch (error) {
    process.stderr.write(`${messageOf(error)}\n`);
    process.exitCode = 1;
  } finally {
    await closeRuntime(runtime);
  }
}

/** The platform modules as the api role makes them (a terminated service's provisioner releases what it held). */
export function cliModules(runtime: Runtime): PlatformModule[] {
  const tokens = new AccessTokens(resolveAuthSecret(runtime.config.authSecret, runtime.config.dataDir));
  return platformModules(runtime, { tokens, auth: new AuthLayer(tokens, runtime.clock) });
}
