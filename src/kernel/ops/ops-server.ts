import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { Logger } from '../log/logger.ts';
import { registerOpsRoutes, type OpsDeps } from './ops-routes.ts';

/**
 * The HTTP side of the dns and checker roles: only /metrics, /healthz and /readyz on API_PORT,
 * so orchestrators probe every role the same way. The api role serves them on its own app.
 */
export async function startOpsServer(
  host: string,
  port: number,
  deps: OpsDeps,
  log: Logger,
): Promise<{ readonly url: string; readonly app: FastifyInstance }> {
  const app = Fastify({
    loggerInstance: log.child({ component: 'ops' }),
    logController: new LogController({ disableRequestLogging: true }),
  }) as unknown as FastifyInstance; // pino's Logger is wider than FastifyBaseLogger in the types only
  registerOpsRoutes(app, deps);
  const url = await app.listen({ host, port });
  return { url, app };
}
