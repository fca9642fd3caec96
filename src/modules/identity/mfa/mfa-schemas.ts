import { Type } from 'typebox';

const Code = Type.String({ minLength: 1, maxLength: 32 });

/** POST /auth/mfa/enable: no body starts enrolment; `{code}` activates it. */
export const EnableMfaBody = Type.Object({ code: Type.Optional(Code) }, { additionalProperties: false });
export const CodeBody = Type.Object({ code: Code }, { additionalProperties: false });

export const EnrolmentView = Type.Object({ secret: Type.String(), otpauth_uri: Type.String() });
export const RecoveryCodesView = Type.Object({ recovery_codes: Type.Array(Type.String()) });
