import { defineError } from '../../kernel/errors/error-registry.ts';

/** Every error of the staff module, with its stable code. */
export const staffRoleForbidden = defineError(
  'staff.role_forbidden',
  403,
  'Your console role does not allow this',
);
export const teammateNotFound = defineError('staff.teammate_not_found', 404, 'Teammate not found');

// Notices and coupons.
export const staffOrgNotFound = defineError('staff.org_not_found', 404, 'Organization not found');
export const noticeNotFound = defineError('staff.notice_not_found', 404, 'Notice not found');
export const couponNotFound = defineError('staff.coupon_not_found', 404, 'Coupon not found');
export const couponCodeTaken = defineError('staff.coupon_code_taken', 409, 'A coupon with this code exists');

/* The team (team/) and the console's sign-in policy. */
export const mfaEnrolmentRequired = defineError('staff.mfa_enrolment_required', 403, {
  code: 'mfa_enrolment_required',
  message:
    'This staff console requires a second factor: turn one on for your account (POST /api/v1/auth/mfa/enable), then try again',
});
export const stepUpRequired = defineError('staff.step_up_required', 403, {
  code: 'step_up_required',
  message:
    'Confirm it is you first: sign in again or POST .../staff/auth/step-up with your password or a second-factor code',
});
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
/** Activity (docs/staff-console.md, "Activity"): what tier 3 and billing must say they look at. */
export const activitySubjectRequired = defineError(
  'staff.activity_subject_required',
  403,
  'Name the customer, order or server you are looking at, or ask for your own actions',
);
/** Activity: tiers 1 and 2 read only their own actions. */
export const activityOwnOnly = defineError(
  'staff.activity_own_only',
  403,
  'Your console role shows only your own actions',
);
