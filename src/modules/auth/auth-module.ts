import type { Kysely } from 'kysely';
import type { Module } from '../../kernel/app-context.ts';
import type { AccessTokens } from '../../kernel/auth/access-token.ts';
import { AuthRepository, type AuthTables } from './auth-repository.ts';
import { registerAuthRoutes } from './auth-routes.ts';
import { AuthService } from './auth-service.ts';

export function authModule(tokens: AccessTokens): Module {
  return {
    name: 'auth',
    register(app, ctx) {
      const repo = new AuthRepository(ctx.db as Kysely<AuthTables>);
      const service = new AuthService(
        repo,
        tokens,
        ctx.clock,
        ctx.config.accessTokenTtlS,
        ctx.config.refreshTokenTtlS,
      );
      registerAuthRoutes(app, service);
    },
  };
}
