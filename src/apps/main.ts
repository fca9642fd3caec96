import { ConfigError, loadConfig } from '../kernel/config/load-config.ts';
import { CONFIG_SECTIONS } from './config-sections.ts';
import { StartRefused } from '../kernel/db/data-dir-lock.ts';
import { createLogger } from '../kernel/log/logger.ts';
import { startNode, type RunningNode } from './node.ts';
import { loadEnvFile } from './env-file.ts';

/** How long SIGTERM/SIGINT wait for in-flight requests and connections before exiting anyway. */
const DRAIN_TIMEOUT_MS = 10_000;

/**
 * Entry point of `npm start`: read the configuration, start the roles, drain on SIGTERM/SIGINT
 * (stop accepting, finish in-flight work within DRAIN_TIMEOUT_MS, exit 0). SIGHUP is handled so it
 * does not kill the process (Node's default): nothing needs reloading, zones follow the bus.
 */
async function main(): Promise<void> {
  let envFile: string | null;
  try {
    envFile = loadEnvFile();
  } catch (error) {
    // A .env that cannot be read (a directory, no permission) stops the start like a bad setting.
    process.stderr.write(`.env: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
  let config;
  try {
    config = loadConfig(process.env, CONFIG_SECTIONS);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const log = createLogger(config.logLevel);
  if (envFile !== null) log.info({ file: envFile }, 'environment file read');
  // Installed before the roles start: a SIGHUP while starting must not kill the process either.
  let node: RunningNode | null = null;
  process.on('SIGHUP', () => {
    log.info({ signal: 'SIGHUP' }, 'reload not needed: zones follow the bus');
    // Passed on to the DNS workers, which change nothing either.
    node?.dnsWorkers?.hangUp();
  });
  let started: RunningNode;
  try {
    started = await startNode(config, log);
  } catch (error) {
    if (error instanceof StartRefused) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  node = started;
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping');
    const timer = setTimeout(() => {
      log.warn({ timeoutMs: DRAIN_TIMEOUT_MS }, 'drain timed out, exiting');
      process.exit(0);
    }, DRAIN_TIMEOUT_MS);
    timer.unref();
    started.stop().then(
      () => {
        log.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        log.error({ err: error }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`fatal: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
