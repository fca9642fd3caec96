/** What this node waits for before it is ready (GET /readyz): one named check per role. */
export type ReadinessCheck = () => boolean | Promise<boolean>;

/** A check that takes longer than this counts as not ready (a hung database must not hang /readyz). */
export const READINESS_CHECK_TIMEOUT_MS = 2_000;

/**
 * A backend check that takes longer than this names the backend under `degraded`: it decides a
 * label only (the node is ready either way), and a DNS node is asked while its database hangs.
 */
export const READINESS_BACKEND_TIMEOUT_MS = 1_000;

export class Readiness {
  private readonly checks = new Map<string, ReadinessCheck>();
  private readonly backends = new Map<string, ReadinessCheck>();

  set(name: string, check: ReadinessCheck): void {
    this.checks.set(name, check);
  }

  /**
   * A backend this node can serve without for a while (a DNS node answers from its snapshot):
   * when its check fails, /readyz still answers 200 and names it under `degraded`.
   */
  setBackend(name: string, check: ReadinessCheck): void {
    this.backends.set(name, check);
  }

  /** Names of the checks that fail now; empty when ready. */
  notReady(): Promise<string[]> {
    return Readiness.failing(this.checks, READINESS_CHECK_TIMEOUT_MS);
  }

  /** Names of the backends unreachable now; empty when all answer. */
  degraded(): Promise<string[]> {
    return Readiness.failing(this.backends, READINESS_BACKEND_TIMEOUT_MS);
  }

  private static async failing(checks: Map<string, ReadinessCheck>, timeoutMs: number): Promise<string[]> {
    const failing: string[] = [];
    await Promise.all(
      [...checks].map(async ([name, check]) => {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), timeoutMs);
        });
        const ok = await Promise.race([Promise.resolve().then(check), timeout]).catch(() => false);
        clearTimeout(timer);
        if (!ok) failing.push(name);
      }),
    );
    return failing.sort();
  }
}
