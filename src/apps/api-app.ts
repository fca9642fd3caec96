import type { FastifyInstance } from 'fastify';
import type { AppContext, Module } from '../kernel/app-context.ts';
import { AccessTokens } from '../kernel/auth/access-token.ts';
import { installAuthGuard } from '../kernel/auth/auth-guard.ts';
import { resolveAuthSecret } from '../kernel/auth/auth-secret.ts';
import { createHttpServer } from '../kernel/http/create-http-server.ts';
import { installAuthFailureLimit } from '../kernel/limits/auth-failure-limit.ts';
import { installRequestRateLimit } from '../kernel/limits/request-rate-limit.ts';
import { controlPlaneModules } from '../modules/index.ts';

export interface ApiApp {
  readonly app: FastifyInstance;
  readonly modules: readonly Module[];
}

/** Wires the HTTP kernel (limits, auth) and every control-plane module into one Fastify app. */
export async function buildApiApp(
  ctx: AppContext,
  /** Routes added beside the modules' before the app is sealed (the ops endpoints). */
  addRoutes: (app: FastifyInstance) => void = () => undefined,
): Promise<ApiApp> {
  const tokens = new AccessTokens(resolveAuthSecret(ctx.config.authSecret, ctx.config.dataDir));
  const app = createHttpServer({
    logger: ctx.log,
    bodyLimitBytes: ctx.config.apiBodyLimitBytes,
    trustProxy: ctx.config.trustProxy,
  });
  installRequestRateLimit(app, ctx.bus, ctx.clock);
  installAuthFailureLimit(app, ctx.bus, ctx.clock);
  installAuthGuard(app, tokens, ctx.clock);
  addRoutes(app);
  const modules = controlPlaneModules(tokens);
  for (const module of modules) await module.register(app, ctx);
  for (const module of modules) await module.start?.(ctx);
  await app.ready();
  return { app, modules };
}
