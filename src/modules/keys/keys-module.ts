import type { AuthLayer } from '../../kernel/auth/auth-layer.ts';
import type { PlatformModule } from '../../kernel/module/platform-module.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { AccountsDirectory } from '../identity/index.ts';
import type { OrgDirectory } from '../orgs/index.ts';
import { refuseAccountKeys } from './account-keys/account-key-gate.ts';
import { registerAccountKeyRoutes } from './account-keys/account-keys-routes.ts';
import { AccountKeysService } from './account-keys/account-keys-service.ts';
import { CommerceGate } from './commerce-gate/commerce-gate.ts';
import { keysContext } from './keys-context.ts';
import { registerOrgKeyRoutes } from './org-keys/org-keys-routes.ts';
import { OrgKeysService } from './org-keys/org-keys-service.ts';
import { PartnerKeyCheck } from './partner-keys/partner-key-check.ts';
import { PartnerKeysRepository } from './partner-keys/partner-keys-repository.ts';

export interface KeysModuleDeps {
  readonly auth: AuthLayer;
  readonly accounts: AccountsDirectory;
  readonly orgs: OrgDirectory;
}

/**
 * API keys (mounted at /api/v1): account keys (/auth/me/api-keys), which no route accepts — a
 * request carrying one is refused first of all — and organization keys (/orgs/{slug}/api-keys),
 * which open the Commerce API through the Commerce gate with their scopes — and partner keys, made
 * on the command line, which open a partner's boost claims alone (the `partner` requirement).
 */
export function createKeysModule(runtime: Runtime, deps: KeysModuleDeps): PlatformModule {
  const ctx = keysContext(runtime);
  const gate = new CommerceGate(ctx, deps.orgs);
  deps.auth.addGate(refuseAccountKeys);
  gate.install(deps.auth);
  new PartnerKeyCheck(new PartnerKeysRepository(ctx.db), deps.orgs).install(deps.auth);
  const accountKeys = new AccountKeysService(ctx, deps.accounts);
  const orgKeys = new OrgKeysService(ctx);
  let unsubscribe: (() => Promise<void>) | null = null;
  return {
    name: 'keys',
    prefix: '',
    routes(app) {
      registerAccountKeyRoutes(app, accountKeys);
      registerOrgKeyRoutes(app, orgKeys);
    },
    async start() {
      unsubscribe = await gate.listen();
    },
    async stop() {
      await unsubscribe?.();
    },
  };
}
