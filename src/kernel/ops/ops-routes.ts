import type { FastifyInstance } from 'fastify';
import { PROMETHEUS_CONTENT_TYPE, type MetricsRegistry } from '../metrics/metrics-registry.ts';
import type { Readiness } from './readiness.ts';

export interface OpsDeps {
  readonly registry: MetricsRegistry;
  readonly readiness: Readiness;
}

/** GET /metrics, /healthz, /readyz: for probes and scrapers, so no token. */
export function registerOpsRoutes(app: FastifyInstance, deps: OpsDeps): void {
  const config = { auth: 'public' } as const;
  app.get('/healthz', { config }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config }, async (_request, reply) => {
    const [notReady, degraded] = await Promise.all([deps.readiness.notReady(), deps.readiness.degraded()]);
    const backends = degraded.length > 0 ? { degraded } : {};
    if (notReady.length === 0) return { status: 'ready', ...backends };
    return reply.code(503).send({ status: 'not ready', not_ready: notReady, ...backends });
  });
  app.get('/metrics', { config }, async (_request, reply) =>
    reply.header('content-type', PROMETHEUS_CONTENT_TYPE).send(await deps.registry.scrape()),
  );
}
