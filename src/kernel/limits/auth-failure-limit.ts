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
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.authFailureLimit !== true) return;
    const key = keyOf(request.routeOptions.url ?? '', request.ip);
    const result = await bus.slidingWindowCount(key, clock.now(), WINDOW_MS);
    if (result.count >= AUTH_FAILURES_PER_MINUTE) {
      throw tooManyAuthAttempts();
    }
  });
  app.addHook('onSend', async (request, reply) => {
    if (request.routeOptions.config.authFailureLimit !== true) return;
    if (reply.statusCode !== 401 && reply.statusCode !== 403) return;
    await bus.slidingWindowRecord(keyOf(request.routeOptions.url ?? '', request.ip), clock.now(), WINDOW_MS);
  });
}
