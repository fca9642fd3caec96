/** The organizations module's public surface. */
export {
  createOrgsModule,
  orgWithOwner,
  reactivateOrganization,
  type OrgsModule,
  type OrgsModuleDeps,
} from './orgs-module.ts';
export type { LiveProduct, LiveProductSource, OrgDirectory, OrgSummary } from './orgs-interfaces.ts';
