/**
 * A background poller that polls less while there is nothing to do: after a round that found no
 * work the next waits twice as long, up to `maxMs`; a round that did work, or a `wake()` (someone
 * just queued work), brings it back to `minMs`. An idle process then costs a few queries a
 * minute, not several a second (on the embedded database every query runs on the thread that
 * also answers DNS), while queued work still starts at once and scheduled work (retries, renewals)
 * starts at most `maxMs` late. Rounds never overlap. Real time: the work itself reads the
 * injected clock.
 */
export class IdleBackoffPoller {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private started = false;
  private minMs = 1000;
  private maxMs = 1000;
  private delayMs = 1000;

  /** `round` answers whether it found work; `onError` hears a round that threw (polling goes on). */
  constructor(
    private readonly round: () => Promise<boolean>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** The wait before the next round (tests). */
  get currentDelayMs(): number {
    return this.delayMs;
  }

  /** Polls every `minMs` while there is work, up to `maxMs` apart while idle. */
  start(minMs: number, maxMs: number): void {
    if (this.started) return;
    this.started = true;
    this.minMs = minMs;
    this.maxMs = Math.max(minMs, maxMs);
    this.delayMs = minMs;
    this.schedule();
  }

  /**
   * Runs a round now (or right after the running one) and polls at the shortest interval again.
   * Before start() (or after stop()) it runs the one round and schedules none.
   */
  wake(): void {
    this.delayMs = this.minMs;
    if (this.running !== null) {
      this.again = true;
      return;
    }
    this.run();
  }

  /** Waits until no round runs (nor is asked for). */
  async idle(): Promise<void> {
    while (this.running !== null) await this.running;
  }

  /** Stops polling and waits for the running round. */
  async stop(): Promise<void> {
    this.started = false;
    this.again = false;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(): void {
    if (!this.started) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.run();
    }, this.delayMs);
    this.timer.unref();
  }

  private run(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.running = this.round()
      .then(
        (worked) => {
          this.delayMs = worked ? this.minMs : Math.min(this.delayMs * 2, this.maxMs);
        },
        (error: unknown) => this.onError(error),
      )
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.delayMs = this.minMs;
          this.run();
        } else {
          this.schedule();
        }
      });
  }
}
