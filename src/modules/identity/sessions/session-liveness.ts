import type { SessionsRepository } from './sessions-repository.ts';

/** How long a session read as live is believed without asking the database again. */
export const LIVE_CACHE_MS = 10_000;
/** Sessions remembered at most (ended ones stay remembered until pushed out). */
const MAX_ENTRIES = 100_000;

/**
 * Whether a token's session still stands, checked on every authenticated request: answered from
 * memory when known, else read from the database once. Sessions ended anywhere are announced on
 * the bus (sessionsEnded) and marked here at once; the database is asked again after
 * LIVE_CACHE_MS in case an announcement was lost.
 */
export class SessionLiveness {
  private readonly known = new Map<string, { live: boolean; untilMs: number }>();

  constructor(
    private readonly repo: SessionsRepository,
    private readonly now: () => number,
  ) {}

  isLive(sessionId: string): boolean | Promise<boolean> {
    const hit = this.known.get(sessionId);
    if (hit !== undefined && (!hit.live || hit.untilMs > this.now())) return hit.live;
    return this.repo.findSession(sessionId).then((row) => {
      const live = row !== null && row.ended_at === null;
      this.remember(sessionId, live);
      return live;
    });
  }

  markEnded(sessionIds: readonly string[]): void {
    for (const id of sessionIds) this.remember(id, false);
  }

  private remember(id: string, live: boolean): void {
    this.known.delete(id);
    this.known.set(id, { live, untilMs: this.now() + LIVE_CACHE_MS });
    if (this.known.size > MAX_ENTRIES) this.known.delete(this.known.keys().next().value!);
  }
}
