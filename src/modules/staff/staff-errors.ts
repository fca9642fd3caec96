import { defineError } from '../../kernel/errors/error-registry.ts';

/** Every error of the staff module, with its stable code. */
export const staffRoleForbidden = defineError(
  'staff.role_forbidden',
  403,
  'Your console role does not allow this',
);
export const teammateNotFound = defineError('staff.teammate_not_found', 404, 'Teammate not found');

/* The team (team/) and the console's sign-in policy. */
export const mfaEnrolmentRequired = defineError(
  'staff.mfa_enrolment_required',
  403,
  'This staff console requires a second factor: turn one on for your account (POST /api/v1/auth/mfa/enable), then try again',
);
export const stepUpRequired = defineError(
  'staff.step_up_required',
  403,
  'Confirm it is you first: sign in again or POST .../staff/auth/step-up with your password or a second-factor code (step_up_required)',
);
export const stepUpRefused = defineError('staff.step_up_refused', 403, 'The password or code is not right');
export const ownMfaRequired = defineError(
  'staff.own_mfa_required',
  409,
  'Turn on a second factor for your own account before requiring one of the team',
);
export const teammateProtected = defineError(
  'staff.teammate_protected',
  403,
  'Not for yourself, nor for the organization’s owner',
);
export const alreadyOnTeam = defineError('staff.already_on_team', 409, 'This person is already on the team');
export const linkCustomerNotFound = defineError('staff.customer_not_found', 404, 'Customer not found');
