import type { Config } from '../kernel/config/config.ts';
import type { Logger } from '../kernel/log/logger.ts';
import { buildApiApp } from './api-app.ts';
import { startCheckerRole, type CheckerRole } from './checker-role.ts';
import { startDnsRole, type DnsRole } from './dns-role.ts';
import { closeRuntime, openRuntime, type RuntimeOptions } from './runtime.ts';

export interface RunningNode {
  readonly apiUrl: string | null;
  readonly dns: DnsRole | null;
  readonly checker: CheckerRole | null;
  stop(): Promise<void>;
}

/** Starts the roles this process plays (ROLE) on one shared runtime. */
export async function startNode(
  config: Config,
  log: Logger,
  options: RuntimeOptions = {},
): Promise<RunningNode> {
  const ctx = await openRuntime(config, log, options);
  const stops: (() => Promise<void>)[] = [];
  let apiUrl: string | null = null;
  let dns: DnsRole | null = null;
  let checker: CheckerRole | null = null;
  try {
    if (config.role === 'all' || config.role === 'dns') {
      const role = await startDnsRole(ctx);
      dns = role;
      stops.push(() => role.stop());
    }
    if (config.role === 'all' || config.role === 'checker') {
      const role = await startCheckerRole(ctx);
      checker = role;
      stops.push(() => role.stop());
    }
    if (config.role === 'all' || config.role === 'api') {
      const { app, modules } = await buildApiApp(ctx);
      apiUrl = await app.listen({ host: config.apiHost, port: config.apiPort });
      log.info({ url: apiUrl }, 'API listening');
      stops.push(async () => {
        await app.close();
        for (const m of modules) await m.stop?.();
      });
    }
  } catch (error) {
    for (const s of stops.reverse()) await s();
    await closeRuntime(ctx);
    throw error;
  }
  return {
    apiUrl,
    dns,
    checker,
    async stop() {
      for (const s of stops.reverse()) await s();
      await closeRuntime(ctx);
    },
  };
}
