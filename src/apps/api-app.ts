import { readFileSync } from 'node:fs';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { AccessTokens } from '../kernel/auth/access-token.ts';
import { AuthLayer } from '../kernel/auth/auth-layer.ts';
import { resolveAuthSecret } from '../kernel/auth/auth-secret.ts';
import { createHttpServer } from '../kernel/http/create-http-server.ts';
import { installOpenApi } from '../kernel/http/openapi-document.ts';
import { installAuthFailureLimit } from '../kernel/limits/auth-failure-limit.ts';
import { exemptList, ProxyLimits } from '../kernel/limits/proxy-limits.ts';
import { installRequestRateLimit } from '../kernel/limits/request-rate-limit.ts';
import { registerModule, type PlatformModule } from '../kernel/module/platform-module.ts';
import type { Runtime } from '../kernel/runtime/runtime.ts';
import { platformModules } from './platform-modules.ts';

const PACKAGE_VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

export interface ApiApp {
  readonly app: FastifyInstance;
  readonly modules: readonly PlatformModule[];
  /** Every route as declared (method, url, schema, config): what the architecture tests read. */
  readonly routes: readonly RouteOptions[];
}

/** Joins the HTTP kernel (limits, authentication) and every platform module into one Fastify app. */
export async function buildApiApp(
  runtime: Runtime,
  /** Routes added beside the modules' before the app is sealed (the ops endpoints). */
  addRoutes: (app: FastifyInstance) => void = () => undefined,
): Promise<ApiApp> {
  const config = runtime.config;
  const tokens = new AccessTokens(resolveAuthSecret(config.authSecret, config.dataDir));
  const app = createHttpServer({
    logger: runtime.log,
    bodyLimitBytes: config.apiBodyLimitBytes,
    trustProxy: config.trustProxy,
  });
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
  await installOpenApi(app, PACKAGE_VERSION);
  const exempt = exemptList(config.limitsExempt);
  if (config.proxyLimits) new ProxyLimits(runtime.clock, exempt).install(app);
  // Before the request limit: a route's per-address budgets are counted in the same call as it.
  runtime.budgets.install(app);
  installRequestRateLimit(app, runtime.bus, runtime.clock, exempt);
  installAuthFailureLimit(app, runtime.bus, runtime.clock);
  const auth = new AuthLayer(tokens, runtime.clock);
  auth.install(app);
  runtime.audit.install(app);
  addRoutes(app);
  const modules = platformModules(runtime, { tokens, auth });
  for (const module of modules) await registerModule(app, module);
  for (const module of modules) await module.start?.();
  await app.ready();
  return { app, modules, routes };
}
