import { Type } from 'typebox';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { MessageView, TokenPairView } from '../sign-in/sign-in-schemas.ts';
import type { SignInService } from '../sign-in/sign-in-service.ts';
import { CodeBody, EnableMfaBody, EnrolmentView, RecoveryCodesView, VerifyMfaBody } from './mfa-schemas.ts';
import type { MfaService } from './mfa-service.ts';

/**
 * /auth/mfa: TOTP enrolment, disabling, new recovery codes (a main-site token), and completing a
 * sign-in that answered `mfa_required` (the MFA token is the credential). The four routes share
 * the `user.mfa_verify` budget (kernel budget table).
 */
export function registerMfaRoutes(app: ModuleApp, mfa: MfaService, signIn: SignInService): void {
  app.post(
    '/mfa/enable',
    {
      schema: { body: EnableMfaBody, response: { 200: Type.Union([EnrolmentView, RecoveryCodesView]) } },
      config: { optionalBody: true, audit: 'identity.mfa.enable' },
    },
    async (request) => {
      const userId = request.principal.userId!;
      const code = request.body.code;
      return code === undefined ? mfa.startEnrolment(userId) : mfa.finishEnrolment(userId, code);
    },
  );

  app.post(
    '/mfa/disable',
    { schema: { body: CodeBody, response: { 200: MessageView } }, config: { audit: 'identity.mfa.disable' } },
    async (request) => mfa.disable(request.principal.userId!, request.body.code),
  );

  app.post(
    '/mfa/recovery-codes',
    {
      schema: { body: CodeBody, response: { 200: RecoveryCodesView } },
      config: { audit: 'identity.mfa.recovery_codes' },
    },
    async (request) => mfa.newRecoveryCodes(request.principal.userId!, request.body.code),
  );

  app.post(
    '/mfa/verify',
    {
      schema: { body: VerifyMfaBody, response: { 200: TokenPairView } },
      config: { auth: 'public', authFailureLimit: true, audit: false },
    },
    async (request) => signIn.completeMfa(request.body.mfa_token, request.body.code),
  );
}
