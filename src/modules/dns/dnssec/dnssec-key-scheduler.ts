import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { Logger } from '../../../kernel/log/logger.ts';
import type { DnssecService } from './dnssec-service.ts';

/**
 * Runs the DNSSEC key schedule every `intervalS` seconds while the API is up (the clock it reads
 * is the injected one, so tests move time and wait one interval). Several API processes may run it
 * at once: each step re-reads the keys under the zone lock and applies only what is still due.
 */
export function scheduleDnssecKeys(
  app: ModuleApp,
  service: DnssecService,
  intervalS: number,
  log: Logger,
): void {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  const tick = (): void => {
    if (running !== null) return;
    running = service
      .runKeySchedule()
      .then(() => undefined)
      .catch((error: unknown) => log.error({ err: error }, 'DNSSEC key schedule failed'))
      .finally(() => {
        running = null;
      });
  };
  app.addHook('onReady', async () => {
    timer = setInterval(tick, intervalS * 1000);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer !== null) clearInterval(timer);
    await running;
  });
}
