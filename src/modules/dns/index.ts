/**
 * The DNS module's public surface: the control API module, the DNS node and the health checker
 * (the roles apps/ starts), the settings section, and the interface other modules use to find
 * hosted zones and publish records they own.
 */
export { createDnsModule, type DnsModule, type DnsModuleDeps, type ZoneHolders } from './dns-module.ts';
export { dnsConfig, type DnsSettings } from './dns-config.ts';
export type {
  HostedZone,
  ManagedRecord,
  ManagedRecordInput,
  ManagedRecords,
  ManagedZones,
} from './managed/managed-records.ts';
export { createDnsNode, type DnsNode } from './node/dns-node.ts';
export type { DnsRole } from './node/dns-role.ts';
export type { DnsWorkerRole } from './node/dns-worker-role.ts';
export { startCheckerRole, type CheckerRole } from './node/checker-role.ts';
