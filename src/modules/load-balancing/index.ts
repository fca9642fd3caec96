/**
 * The load-balancing module's public surface: the control API module, its settings section, its
 * events, and what the node roles read (steering and member health; the checker's store).
 */
export { createLoadBalancingModule, type LoadBalancingModuleDeps } from './load-balancing-module.ts';
export { loadBalancingConfig, type LoadBalancingSettings } from './load-balancing-config.ts';
export { memberHealthChanged } from './load-balancing-events.ts';
export type { LoadBalancingPublishing, MemberHealthChecks } from './load-balancing-interfaces.ts';
export { createLoadBalancingPublishing } from './steering/load-balancing-publishing.ts';
export { createMemberHealthChecks } from './health/member-health-checks.ts';
