/** Time is injected so tests control it (rate windows, token expiry, schedules). */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
