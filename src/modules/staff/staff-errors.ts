import { defineError } from '../../kernel/errors/error-registry.ts';

/** Every error of the staff module, with its stable code. */
export const staffRoleForbidden = defineError(
  'staff.role_forbidden',
  403,
  'Your console role does not allow this',
);
export const teammateNotFound = defineError('staff.teammate_not_found', 404, 'Teammate not found');
