import type { AccessTokens } from '../../kernel/auth/access-token.ts';
import { moduleContext } from '../../kernel/module/module-context.ts';
import type { PlatformModule } from '../../kernel/module/platform-module.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import { IdentityRepository } from './identity-repository.ts';
import { registerIdentityRoutes } from './identity-routes.ts';
import { IdentityService } from './identity-service.ts';
import type { IdentityTables } from './identity-tables.ts';

/** Accounts and main-site sign-in (base /api/v1/auth). */
export function createIdentityModule(runtime: Runtime, tokens: AccessTokens): PlatformModule {
  const ctx = moduleContext<IdentityTables>(runtime, 'identity');
  const service = new IdentityService(
    new IdentityRepository(ctx.db),
    tokens,
    ctx.clock,
    ctx.config.accessTokenTtlS,
    ctx.config.refreshTokenTtlS,
  );
  return {
    name: 'identity',
    prefix: '/auth',
    routes: (app) => registerIdentityRoutes(app, service),
  };
}
