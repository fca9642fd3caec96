import { Type } from 'typebox';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { mfaVerifyBudget } from '../mfa/mfa-budget.ts';
import type { PasswordResetService } from '../password-reset/password-reset-service.ts';
import type { SessionsService } from '../sessions/sessions-service.ts';
import {
  ForgotPasswordBody,
  LoginBody,
  MfaChallengeView,
  RefreshBody,
  RegisterBody,
  RESET_SENT,
  ResetPasswordBody,
  ResetSentView,
  TokenPairView,
  UserView,
  VerifyMfaBody,
} from './sign-in-schemas.ts';
import { MessageView } from '../shared/message-schemas.ts';
import type { SignInService } from './sign-in-service.ts';

/** The main site's sign-in routes (base /api/v1/auth): counted by the failed sign-in limit. */
export const SIGN_IN = { auth: 'public', authFailureLimit: true, audit: false } as const;

/**
 * /auth: main-site registration, sign-in (and its second factor: /mfa/verify, whatever realm the
 * sign-in was of), refresh, sign-out, password reset, the signed-in user.
 */
export function registerSignInRoutes(
  app: ModuleApp,
  signIn: SignInService,
  sessions: SessionsService,
  resets: PasswordResetService,
  resetLink: (token: string) => string,
): void {
  app.post(
    '/register',
    { schema: { body: RegisterBody, response: { 201: UserView } }, config: SIGN_IN },
    async (request, reply) =>
      reply.code(201).send(await signIn.registerUser(request.body.email, request.body.password)),
  );

  app.post(
    '/login',
    {
      schema: { body: LoginBody, response: { 200: Type.Union([TokenPairView, MfaChallengeView]) } },
      config: SIGN_IN,
    },
    async (request) => signIn.loginUser('main', null, request.body.email, request.body.password),
  );

  app.post(
    '/refresh',
    { schema: { body: RefreshBody, response: { 200: TokenPairView } }, config: SIGN_IN },
    async (request) => sessions.refresh('main', null, request.body.refresh_token),
  );

  app.post(
    '/logout',
    {
      schema: { body: RefreshBody, response: { 200: MessageView } },
      config: { auth: 'public', audit: false },
    },
    async (request) => {
      await sessions.logout(request.body.refresh_token);
      return { message: 'Logged out' };
    },
  );

  app.post(
    '/forgot-password',
    {
      schema: { body: ForgotPasswordBody, response: { 200: ResetSentView } },
      config: { auth: 'public', audit: false },
    },
    async (request) => {
      await resets.request({
        realm: 'main',
        orgId: null,
        email: request.body.email,
        ip: request.ip,
        link: resetLink,
      });
      return RESET_SENT;
    },
  );

  app.post(
    '/reset-password',
    {
      schema: { body: ResetPasswordBody, response: { 200: MessageView } },
      config: { auth: 'public', audit: 'identity.password.reset' },
    },
    async (request) => {
      await resets.reset('main', null, request.body.token, request.body.password);
      return { message: 'Password changed' };
    },
  );

  app.post(
    '/mfa/verify',
    {
      schema: { body: VerifyMfaBody, response: { 200: TokenPairView } },
      config: { auth: 'public', authFailureLimit: true, audit: false, budget: mfaVerifyBudget },
    },
    async (request) => signIn.completeMfa(request.body.mfa_token, request.body.code),
  );

  app.get('/me', { schema: { response: { 200: UserView } } }, async (request) =>
    signIn.me(request.principal.userId!),
  );
}
