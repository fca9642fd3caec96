/** The organizations module's public surface. */
export {
  createOrgsModule,
  reactivateOrganization,
  type OrgsModule,
  type OrgsModuleDeps,
} from './orgs-module.ts';
export type { OrgDirectory, OrgSummary } from './org-access/org-access.ts';
export type { LiveProduct, LiveProductSource } from './organizations/live-products.ts';
