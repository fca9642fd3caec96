import { defineError } from '../../kernel/errors/error-registry.ts';

/** Every error of the staff module, with its stable code. */
export const staffRoleForbidden = defineError(
  'staff.role_forbidden',
  403,
  'Your console role does not allow this',
);
export const teammateNotFound = defineError('staff.teammate_not_found', 404, 'Teammate not found');

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
