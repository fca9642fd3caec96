import type { Logger } from '../../../kernel/log/logger.ts';

/**
 * Long steps (install, rebuild, restore, backups, power tasks) run here after the call that started
 * them has answered: each is awaited by stop(), and a failure is logged (the step itself marks the
 * instance or backup as it must before it throws).
 */
export class BackgroundWork {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly log: Logger) {}

  run(what: string, work: () => Promise<void>): void {
    const p: Promise<void> = work()
      .catch((error: unknown) => this.log.warn({ err: error, what }, 'compute background step failed'))
      .finally(() => this.running.delete(p));
    this.running.add(p);
  }

  /** Resolves once every step started so far has ended. */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}
