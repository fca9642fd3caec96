import { Type } from 'typebox';

/**
 * Console roles (docs/staff-console.md, "Roles"), highest first. The seed names tiers and billing;
 * the organization's owner and admins act as `admin`.
 */
export const STAFF_ROLES = ['admin', 'billing', 'tier3', 'tier2', 'tier1'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** A member of the organization without a console role of their own. */
export const DEFAULT_STAFF_ROLE: StaffRole = 'tier1';

export function isStaffRole(value: string): value is StaffRole {
  return (STAFF_ROLES as readonly string[]).includes(value);
}

/** A console role in a request or an answer. */
export const StaffRoleSchema = Type.Union([
  Type.Literal('admin'),
  Type.Literal('billing'),
  Type.Literal('tier3'),
  Type.Literal('tier2'),
  Type.Literal('tier1'),
]);
