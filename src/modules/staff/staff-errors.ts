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
