import { defineError } from '../../kernel/errors/error-registry.ts';

/** Every error of the organizations module (docs/identity-and-organizations.md, "Errors"). */
export const orgNotFound = defineError('orgs.not_found', 404, 'Organization not found');
export const slugTaken = defineError('orgs.slug_taken', 409, 'Organization slug already taken');
export const liveProducts = defineError('orgs.live_products', 409, (products: readonly unknown[]) => ({
  message: 'Organization still has live products',
  products,
}));
export const deleteNotOwner = defineError(
  'orgs.delete_not_owner',
  403,
  "Only the owner's own main-site session can delete the organization",
);
export const userNotFound = defineError('orgs.user_not_found', 404, 'User not found');
export const alreadyMember = defineError('orgs.already_member', 409, 'Already a member');
export const memberNotFound = defineError('orgs.member_not_found', 404, 'Member not found');
export const ownerProtected = defineError('orgs.owner_protected', 403, 'Only the owner can change the owner');
export const ownerCannotLeave = defineError(
  'orgs.owner_cannot_leave',
  409,
  'The owner cannot be removed or demoted; make another member the owner first',
);
export const customerNotFound = defineError('orgs.customer_not_found', 404, 'Customer not found');
