import type { ModuleApp } from '../../kernel/module/platform-module.ts';
import { LoginBody, RefreshBody, RegisterBody } from './identity-schemas.ts';
import type { IdentityService } from './identity-service.ts';

/** /auth: main-site sign-in (register, login, refresh) and the signed-in account. */
export function registerIdentityRoutes(app: ModuleApp, service: IdentityService): void {
  const signIn = { auth: 'public', authFailureLimit: true } as const;

  app.post('/register', { schema: { body: RegisterBody }, config: signIn }, async (request, reply) =>
    reply.code(201).send(await service.register(request.body.email, request.body.password)),
  );

  app.post('/login', { schema: { body: LoginBody }, config: signIn }, async (request) =>
    service.login(request.body.email, request.body.password),
  );

  app.post('/refresh', { schema: { body: RefreshBody }, config: signIn }, async (request) =>
    service.refresh(request.body.refresh_token),
  );

  app.get('/me', async (request) => service.me(request.principal.userId!));
}
