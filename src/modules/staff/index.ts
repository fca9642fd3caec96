/** The staff module's public surface. */
export { createStaffModule, type StaffModuleDeps } from './staff-module.ts';
export { STAFF_ROLES, type StaffRole } from './access/staff-roles.ts';
