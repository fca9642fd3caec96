import { Type } from 'typebox';

const Email = Type.String({ minLength: 3, maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$' });
const NewPassword = Type.String({ minLength: 8, maxLength: 128 });

export const RegisterBody = Type.Object(
  { email: Email, password: NewPassword },
  { additionalProperties: false },
);

export const LoginBody = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: 128 }),
  },
  { additionalProperties: false },
);

export const RefreshBody = Type.Object(
  { refresh_token: Type.String({ minLength: 1, maxLength: 512 }) },
  { additionalProperties: false },
);

export const ForgotPasswordBody = Type.Object(
  { email: Type.String({ minLength: 1, maxLength: 254 }) },
  { additionalProperties: false },
);

export const ResetPasswordBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 512 }), password: NewPassword },
  { additionalProperties: false },
);

export const UserView = Type.Object({ id: Type.Integer(), email: Type.String(), created_at: Type.String() });

export const TokenPairView = Type.Object({
  access_token: Type.String(),
  refresh_token: Type.String(),
  token_type: Type.Literal('bearer'),
  expires_in: Type.Integer(),
});

export const MfaChallengeView = Type.Object({ mfa_required: Type.Literal(true), mfa_token: Type.String() });

/** What the forgot-password routes always answer, whether the address exists or not. */
export const RESET_SENT = { detail: 'If the address is registered, a reset link has been sent.' } as const;
export const ResetSentView = Type.Object({ detail: Type.String() });

/** POST /auth/mfa/verify: completes a sign-in that answered `mfa_required`. */
export const VerifyMfaBody = Type.Object(
  {
    mfa_token: Type.String({ minLength: 1, maxLength: 512 }),
    code: Type.String({ minLength: 1, maxLength: 32 }),
  },
  { additionalProperties: false },
);
