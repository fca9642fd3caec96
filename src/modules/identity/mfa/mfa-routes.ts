import { Type } from 'typebox';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { mfaVerifyBudget } from './mfa-budget.ts';
import { MessageView } from '../shared/message-schemas.ts';
import { CodeBody, EnableMfaBody, EnrolmentView, RecoveryCodesView } from './mfa-schemas.ts';
import type { MfaService } from './mfa-service.ts';

/**
 * /auth/mfa: TOTP enrolment, disabling, new recovery codes (a main-site token). With
 * /auth/mfa/verify (sign-in-routes.ts) the four routes share the `user.mfa_verify` budget.
 */
export function registerMfaRoutes(app: ModuleApp, mfa: MfaService): void {
  app.post(
    '/mfa/enable',
    {
      schema: { body: EnableMfaBody, response: { 200: Type.Union([EnrolmentView, RecoveryCodesView]) } },
      config: { optionalBody: true, audit: 'identity.mfa.enable', budget: mfaVerifyBudget },
    },
    async (request) => {
      const userId = request.principal.userId!;
      const code = request.body.code;
      return code === undefined ? mfa.startEnrolment(userId) : mfa.finishEnrolment(userId, code);
    },
  );

  app.post(
    '/mfa/disable',
    {
      schema: { body: CodeBody, response: { 200: MessageView } },
      config: { audit: 'identity.mfa.disable', budget: mfaVerifyBudget },
    },
    async (request) => mfa.disable(request.principal.userId!, request.body.code),
  );

  app.post(
    '/mfa/recovery-codes',
    {
      schema: { body: CodeBody, response: { 200: RecoveryCodesView } },
      config: { audit: 'identity.mfa.recovery_codes', budget: mfaVerifyBudget },
    },
    async (request) => mfa.newRecoveryCodes(request.principal.userId!, request.body.code),
  );
}
