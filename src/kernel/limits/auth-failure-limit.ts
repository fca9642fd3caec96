import type { FastifyInstance } from 'fastify';
import type { Bus } from '../events/bus.ts';
import type { Clock } from '../clock.ts';
import { tooManyAuthAttempts } from '../errors/kernel-errors.ts';

export const AUTH_FAILURES_PER_MINUTE = 40;
const WINDOW_MS = 60_000;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Counts this route's 401/403 answers per IP and refuses the 41st attempt within a minute. */
    authFailureLimit?: boolean;
  }
}

/**
 * The failed sign-in limit (docs/keys-and-limits.md, "Limits"): only 401 and 403 answers count, per
 * IP per route.
 */
export function installAuthFailureLimit(app: FastifyInstance, bus: Bus, clock: Clock): void {
  const keyOf = (route: string, ip: string): string => `rl:authfail:${route}:${ip}`;
  // Callback hooks: every request passes them, and most routes have no such limit.
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.routeOptions.config.authFailureLimit !== true) return done();
    const key = keyOf(request.routeOptions.url ?? '', request.ip);
    bus
      .slidingWindowCount(key, clock.now(), WINDOW_MS)
      .then(
        (result) => done(result.count >= AUTH_FAILURES_PER_MINUTE ? tooManyAuthAttempts() : undefined),
        done,
      );
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.routeOptions.config.authFailureLimit !== true) return done(null, payload);
    if (reply.statusCode !== 401 && reply.statusCode !== 403) return done(null, payload);
    bus
      .slidingWindowRecord(keyOf(request.routeOptions.url ?? '', request.ip), clock.now(), WINDOW_MS)
      .then(() => done(null, payload), done);
  });
}
