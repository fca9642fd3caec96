import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../clock.ts';
import { unauthorized } from '../errors/app-error.ts';
import type { AccessTokens } from './access-token.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user's id; set on every route that is not public. */
    userId: number;
  }
  interface FastifyContextConfig {
    /** Routes reachable without a token (locations, products, sign-in). */
    public?: boolean;
  }
}

/**
 * Every route needs `Authorization: Bearer <access token>` unless its config says `public: true`.
 * Unknown routes fall through to the 404 handler.
 */
export function installAuthGuard(app: FastifyInstance, tokens: AccessTokens, clock: Clock): void {
  app.decorateRequest('userId', 0);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (request.routeOptions.url === undefined || request.routeOptions.config.public === true) return;
    const header = request.headers.authorization;
    const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
    const userId = match ? tokens.verify(match[1]!, clock.now()) : null;
    if (userId === null) throw unauthorized();
    request.userId = userId;
  });
}
