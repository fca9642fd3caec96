/**
 * The DNS module's public surface: the control API module, its settings section, what it offers
 * other modules (hosted zones and the records they own; zones as the data load balancing keeps
 * in them; what a DNS node reads to serve them) and the helpers load balancing shares with it.
 */
export { createDnsModule, zoneTree, type DnsModule, type DnsModuleDeps } from './dns-module.ts';
export { dnsConfig, MAX_DNS_WORKERS, type DnsSettings } from './dns-config.ts';
export type {
  DnsPublishing,
  HostedZone,
  ManagedRecord,
  ManagedRecordInput,
  ManagedRecords,
  TxtAt,
  TxtEdit,
  ManagedZones,
  NameClaim,
  NameClaimSource,
  ZoneAccess,
  ZoneActor,
  ZoneChangeResult,
  ZoneChangeScope,
  ZoneHolders,
  ZoneRef,
  ZoneTarget,
  ZoneTree,
  ZoneSteeringSource,
} from './dns-interfaces.ts';
export { createDnsPublishing } from './publishing/dns-publishing.ts';
export { resolveRecordName, type NameCheck } from './shared/record-name.ts';
export { ZoneIdParams } from './zones/zones-schemas.ts';
export { auditZoneOrg } from './zone-access/zone-audit-note.ts';
