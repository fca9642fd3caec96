import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { deriveAuditAction, isStateChanging } from '../audit/audit-actions.ts';
import { API_PREFIX } from '../http/api-prefix.ts';
import { kernelErrorResponses } from '../http/error-schemas.ts';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';

/** The Fastify instance a module's routes are declared on: encapsulated, prefixed, TypeBox-typed. */
export type ModuleApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/**
 * A platform module as the composition root sees it: a name, the URL prefix of its routes under
 * /api/v1, its routes, and work to do at start and stop. Made by the module's factory
 * (`<m>-module.ts`), which also answers the module's public interface for other modules.
 */
export interface PlatformModule {
  readonly name: string;
  /** Under API_PREFIX: '/dns' → /api/v1/dns/...; '' → /api/v1/... */
  readonly prefix: string;
  /** What its routes' derived audit actions start with (`<auditName>.<resource>.<verb>`); default its name. */
  readonly auditName?: string;
  routes(app: ModuleApp): void | Promise<void>;
  /**
   * Pages at the site root, outside API_PREFIX (the password reset page a mail links to): public,
   * and left out of the OpenAPI document, which describes the API.
   */
  pages?(app: FastifyInstance): void;
  /** Once the database is migrated, before serving (e.g. syncing reference data). */
  start?(): Promise<void>;
  stop?(): Promise<void>;
}

/**
 * Registers a module as an encapsulated Fastify plugin under its prefix: its hooks and decorators
 * stay inside, the kernel's (limits, authentication, errors) apply to it.
 */
export async function registerModule(app: FastifyInstance, module: PlatformModule): Promise<void> {
  await app.register(
    async (scope) => {
      // Every state-changing call is audited: a route that names no action gets one from its path.
      // The errors the kernel answers on every route are declared for it (error-schemas.ts).
      scope.addHook('onRoute', (route) => {
        const schema = (route.schema ?? {}) as { response?: Record<string, unknown> };
        route.schema = { ...schema, response: { ...kernelErrorResponses(route), ...schema.response } };
      });
      scope.addHook('onRoute', (route) => {
        const methods = Array.isArray(route.method) ? route.method : [route.method];
        if (route.config?.audit !== undefined || !methods.some(isStateChanging)) return;
        const base = `${API_PREFIX}${module.prefix}`;
        const url = route.url.startsWith(base) ? route.url.slice(base.length) : route.url;
        route.config = {
          ...route.config,
          audit: deriveAuditAction(module.auditName ?? module.name, methods[0]!, url),
        };
      });
      await module.routes(scope.withTypeProvider<TypeBoxTypeProvider>());
    },
    { prefix: `${API_PREFIX}${module.prefix}` },
  );
  const pages = module.pages?.bind(module);
  if (pages === undefined) return;
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.config = { ...route.config, auth: 'public' };
      route.schema = { ...route.schema, hide: true };
    });
    pages(scope);
  });
}
