import type { BlockList } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { isExempt } from './proxy-limits.ts';
import type { Bus } from '../bus/bus.ts';
import type { Clock } from '../clock.ts';
import { rateLimitExceeded } from '../errors/kernel-errors.ts';

export const REQUESTS_PER_MINUTE = 2400;
const WINDOW_MS = 60_000;

/**
 * The seed's shared limit: 2400 requests per IP over a sliding 60 s window, counted in the bus
 * (Redis when configured, so every API process shares one count). Retry-After is the whole
 * seconds until the oldest counted request is a minute old.
 */
export function installRequestRateLimit(
  app: FastifyInstance,
  bus: Bus,
  clock: Clock,
  exempt: BlockList,
): void {
  app.addHook('onRequest', async (request) => {
    if (isExempt(exempt, request.ip)) return;
    const result = await bus.slidingWindowHit(
      `rl:req:${request.ip}`,
      clock.now(),
      WINDOW_MS,
      REQUESTS_PER_MINUTE,
    );
    if (!result.allowed) {
      throw rateLimitExceeded(Math.max(1, Math.ceil(result.retryAfterMs / 1000)));
    }
  });
}
