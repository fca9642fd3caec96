import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { LoginBody, RefreshBody, RegisterBody } from './auth-schemas.ts';
import type { AuthService } from './auth-service.ts';

export function registerAuthRoutes(app: FastifyInstance, service: AuthService): void {
  const limited = { public: true, authFailureLimit: true };

  app.post<{ Body: Static<typeof RegisterBody> }>(
    '/api/v1/auth/register',
    { schema: { body: RegisterBody }, config: limited },
    async (request, reply) =>
      reply.code(201).send(await service.register(request.body.email, request.body.password)),
  );

  app.post<{ Body: Static<typeof LoginBody> }>(
    '/api/v1/auth/login',
    { schema: { body: LoginBody }, config: limited },
    async (request) => service.login(request.body.email, request.body.password),
  );

  app.post<{ Body: Static<typeof RefreshBody> }>(
    '/api/v1/auth/refresh',
    { schema: { body: RefreshBody }, config: limited },
    async (request) => service.refresh(request.body.refresh_token),
  );

  app.get('/api/v1/auth/me', async (request) => service.me(request.userId));
}
