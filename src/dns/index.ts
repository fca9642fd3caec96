/**
 * The data plane's one public surface: everything outside src/dns (apps, modules, health, testing,
 * bench, test) imports the data plane from here and nowhere else (test/architecture/
 * dns-floors.test.ts keeps it so). Re-exports only, grouped by what a caller does with them.
 *
 * Inside src/dns the floors import each other directly, each only its own or lower floors:
 * wire/ (0) → zonefile/ (1) → zone/ (2) → steering/ dnssec/ transfer/ (3) → answer/ (4) →
 * server/ (5). Loading this file loads every floor, so every zone extension (steering, DNSSEC) is
 * defined before the first snapshot is built (zone/zone-extension.ts).
 */

// Zones in: the plain data the control plane hands the data plane, and the change events.
// ZoneData carries its feature fields (steering, dnssec, transfer) by declaration merging.
export type {
  ZoneChangedEvent,
  ZoneData,
  ZoneNamesData,
  ZoneRecordData,
  ZoneSource,
} from './zone/zone-data.ts';
export { ZONE_CHANGED_CHANNEL } from './zone/zone-data.ts';
export type {
  HealthView,
  LocationStrategy,
  MemberHealth,
  OnAllUnhealthy,
  PoolAlgorithm,
  SessionAffinity,
  SteeringLoadBalancer,
  SteeringMember,
  SteeringPolicy,
  SteeringPool,
  ZoneSteering,
} from './steering/steering-config.ts';
export type { DnssecAlgorithm, DnssecDenial, DnssecSigningKey, ZoneDnssec } from './dnssec/dnssec-config.ts';
export { NSEC3PARAM_RDATA } from './dnssec/nsec3-chain.ts';
export {
  DNSKEY_FLAGS_KSK,
  DNSKEY_FLAGS_ZSK,
  DNSSEC_ALGORITHM,
  DNSSEC_ALGORITHM_NAME,
} from './dnssec/dnssec-config.ts';
export type { TransferTsigKey, ZoneTransferPolicy } from './transfer/transfer-policy.ts';
export { TSIG_HMAC_SHA256 } from './transfer/transfer-policy.ts';

// Serving zones: the store of snapshots swapped in one step, a change to a few names applied to
// a zone's data, and zone-file text as ZoneData (tools, benchmarks, tests).
export { ZoneStore } from './zone/zone-store.ts';
export { applyNamesChange } from './zone/zone-names-change.ts';
export type { ZoneText } from './zone/zone-data-from-text.ts';
export { zoneDataFromText } from './zone/zone-data-from-text.ts';
// The packed record layout (a large zone's records as bytes, as the DNS node's snapshot file holds them).
export type { PackedZoneRecords } from './zone/packed-records.ts';
export {
  PACKED_ZONE_RECORDS,
  SAME_OWNER,
  packedZone,
  readApexRecords,
  readRecords,
  recordsPiece,
  writeRecord,
} from './zone/packed-records.ts';

// Answering: bytes in, bytes out, over a ZoneStore; the outcome tells stats and RRL what happened.
export type {
  ClientInfo,
  MessageHandlerOptions,
  MessageHandlers,
  MessageOutcome,
} from './server/handle-message.ts';
export {
  createMessageHandler,
  createMessageHandlerWithContext,
  createOutcome,
} from './server/handle-message.ts';
export type { AnswerCacheCounters } from './server/answer-cache.ts';
export {
  createAnswerCacheCounters,
  DEFAULT_ANSWER_CACHE_BYTES,
  SAMPLE_EVERY,
  SIGNED_ANSWER_LIFETIME_MS,
  WINDOW_LOOKUPS,
} from './server/answer-cache.ts';
export { ServerCookies } from './server/server-cookies.ts';
export { chaosIdentity } from './answer/chaos-identity.ts';

// Listening: UDP and TCP in this process, or in N cluster workers under a supervisor. A worker's
// entry script calls runDnsWorker with the app's zone loading.
export type { DnsServer, DnsServerOptions } from './server/dns-server.ts';
export { startDnsServer } from './server/dns-server.ts';
export type { DnsHandler, DnsSlotHandler, ServerLimits } from './server/listener-options.ts';
export type {
  DnsWorkerEvent,
  DnsWorkerIdentity,
  DnsWorkerReply,
  DnsWorkers,
  DnsWorkersOptions,
  DnsWorkerZoneLoader,
  DnsWorkerZones,
} from './server/dns-workers.ts';
export { startDnsWorkers } from './server/dns-workers.ts';
export { runDnsWorker } from './server/dns-worker-main.ts';

// Rate limiting, counters and query statistics of a DNS node (metrics, per-zone stats).
export type { ResponseRateLimiter, RrlOptions } from './server/response-rate-limit.ts';
export { createResponseRateLimiter } from './server/response-rate-limit.ts';
export type { DnsCounters } from './server/dns-counters.ts';
export {
  BUS_LAG_BUCKETS_S,
  LATENCY_BUCKETS_S,
  LATENCY_SAMPLE_EVERY,
  RCODE_SLOTS,
  TRANSPORTS,
  ZONE_CLASSES,
  createDnsCounters,
  queryIndex,
} from './server/dns-counters.ts';
export type { DnsCountersSnapshot } from './server/dns-counters-merge.ts';
export {
  addSnapshot,
  emptySnapshot,
  loadMergedCounters,
  snapshotCounters,
  snapshotQueryTotal,
} from './server/dns-counters-merge.ts';
export type { QueryStats, QueryStatsRow, QueryStatsSink } from './server/query-stats.ts';
export { createQueryStats, rcodeToText } from './server/query-stats.ts';

// Load balancing: the one steering function the DNS path and the preview API share, its trace
// types, and the member health the DNS path reads.
export { steer } from './steering/steering-engine.ts';
export type { ClientContext, ClientContextInput, LocationOverrides } from './steering/client-location.ts';
export { resolveClientContext } from './steering/client-location.ts';
export type {
  CascadeHit,
  PoolSkipReason,
  SteeringDecision,
  SteeringReason,
  TracePool,
  TraceStage,
  TraceStageName,
} from './steering/steering-decision.ts';
export { MemberHealthTable } from './steering/member-health-table.ts';

// DNSSEC keys and the records derived from them (the control plane's key schedule).
export type { GeneratedKey } from './dnssec/dnssec-key.ts';
export {
  CDNSKEY_DELETE_RDATA,
  CDS_DELETE_RDATA,
  DS_DIGEST_SHA256,
  dsRdata,
  generateDnssecKey,
} from './dnssec/dnssec-key.ts';
export { SIGNATURE_VALIDITY_MAX_S } from './dnssec/zone-signer.ts';

// Zone transfers out (AXFR/IXFR, TSIG), and what NOTIFY and IXFR history need from them.
export type { TransferHandler, ZoneVersionSource } from './transfer/transfer-handler.ts';
export { createTransferHandler } from './transfer/transfer-handler.ts';
export { TransferZones } from './transfer/transfer-zones.ts';
export { TsigSigner } from './transfer/tsig-hmac.ts';
export { recordWire } from './transfer/transfer-messages.ts';
export { findSoa } from './transfer/zone-diff.ts';

// Wire and presentation formats: RR types, names, addresses and CIDR lists, RDATA, zone files.
export type { RrTypeName } from './wire/rr-type.ts';
export { RR_TYPE, isMetaType, typeFromText, typeToText } from './wire/rr-type.ts';
export { nameToWire, parseStoredName } from './wire/name-text.ts';
export { wireNameFromText } from './wire/wire-name.ts';
export { bytesToIpv4, bytesToIpv6, ipv4ToBytes, ipv6ToBytes } from '../net/ip-address-text.ts';
export { IP_BYTES, parseCidr, parseIpInto } from './wire/cidr-matcher.ts';
export { RdataError, formatRdata } from './wire/rdata/rdata-codec.ts';
export { parseRdataText } from './zonefile/rdata-text-parser.ts';
export type {
  ParsedRecord,
  ZoneFileError,
  ZoneFileOptions,
  ZoneFileResult,
} from './zonefile/zone-file-parser.ts';
export { parseZoneFile } from './zonefile/zone-file-parser.ts';
export type { ZoneFileRecord } from './zonefile/zone-file-writer.ts';
export { writeZoneFile } from './zonefile/zone-file-writer.ts';
export { LbAnswerCounts, lbAnswerLabels } from './steering/lb-answer-counts.ts';
