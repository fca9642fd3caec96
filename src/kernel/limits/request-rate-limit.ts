import type { FastifyInstance } from 'fastify';
import type { ExemptList } from './exempt-list.ts';
import type { Bus } from '../events/bus.ts';
import type { Clock } from '../clock.ts';
import { rateLimitExceeded } from '../errors/kernel-errors.ts';

export const REQUESTS_PER_MINUTE = 2400;
const WINDOW_MS = 60_000;

/**
 * The shared per-IP limit: 2400 requests per IP over a sliding 60 s window, counted in the bus
 * (Redis when configured, so every API process shares one count). Retry-After is the whole
 * seconds until the oldest counted request is a minute old. It counts the API (/api/v1), not the
 * probes' endpoints (/healthz, /readyz, /metrics), and it fails open: while Redis does not answer,
 * requests pass (logged once a minute) rather than all failing with 500.
 */
export function installRequestRateLimit(
  app: FastifyInstance,
  bus: Bus,
  clock: Clock,
  exempt: ExemptList,
): void {
  let warnedAt = -Infinity;
  // A callback hook: a promise less on every request (probes and exempt addresses pass at once).
  app.addHook('onRequest', (request, _reply, done) => {
    if (!request.url.startsWith('/api/') || exempt.has(request.ip)) return done();
    const failOpen = (error: unknown): void => {
      if (clock.now() - warnedAt >= WINDOW_MS) {
        warnedAt = clock.now();
        request.log.warn({ err: error }, 'request rate limit not counted: the bus does not answer');
      }
      done();
    };
    if (bus.reachable?.() === false) return failOpen(new Error('bus unreachable'));
    bus
      .slidingWindowHit(`rl:req:${request.ip}`, clock.now(), WINDOW_MS, REQUESTS_PER_MINUTE)
      .then(
        (result) =>
          done(
            result.allowed
              ? undefined
              : rateLimitExceeded(Math.max(1, Math.ceil(result.retryAfterMs / 1000))),
          ),
        failOpen,
      );
  });
}
