/**
 * What the control plane hands the data plane for one zone: plain data, no behaviour.
 * Names are absolute, lower case, without the trailing dot ("www.example.com"; the root is "").
 * The apex SOA and NS RRsets are included like any other record.
 */
export interface ZoneRecordData {
  readonly name: string;
  /** RR type code (RFC 1035 §3.2.2 and later registries). */
  readonly type: number;
  readonly ttl: number;
  /** Uncompressed RDATA in wire format. */
  readonly rdata: Uint8Array;
}

/**
 * The zone floor knows records only. Each feature above it adds its own optional field here by
 * declaration merging, next to its types: `steering` (steering/steering-config.ts), `dnssec`
 * (dnssec/dnssec-config.ts), `transfer` (transfer/transfer-policy.ts). The control plane sees one
 * ZoneData with all of them (src/dns/index.ts); zone/ imports none of them.
 */
export interface ZoneData {
  readonly id: number;
  readonly domain: string;
  readonly serial: number;
  readonly records: readonly ZoneRecordData[];
  /**
   * The zone's records packed (packed-records.ts) instead of as objects: a DNS node cold-started
   * from its snapshot file hands a large zone over as the file holds it. When set, the snapshot is
   * built from it alone (packed-node-table.ts) and `records` holds the apex's records only.
   */
  readonly packed?: PackedZoneRecords;
}

/** A zone's records in the packed layout (packed-records.ts): `count` records in `bytes`. */
export interface PackedZoneRecords {
  readonly count: number;
  readonly bytes: Uint8Array;
}

/** The one narrow interface through which the data plane receives zones. */
export interface ZoneSource {
  loadAll(): Promise<ZoneData[]>;
  /** null when the zone no longer exists (deleted): stop serving it. */
  load(zoneId: number): Promise<ZoneData | null>;
  /**
   * The zone's serial and SOA, and every record owned by `names`, read together: what a DNS node
   * needs to apply a change to those names to the zone it serves (ZoneChangedEvent.names). null
   * when the zone no longer exists. Optional: without it every change reloads the whole zone.
   */
  loadNames?(zoneId: number, names: readonly string[]): Promise<ZoneNamesData | null>;
}

/** See ZoneSource.loadNames. */
export interface ZoneNamesData {
  readonly serial: number;
  /** The apex SOA record (as in ZoneData.records). */
  readonly soa: ZoneRecordData;
  /** The records owned by the names asked for, apex excluded. */
  readonly records: readonly ZoneRecordData[];
}

/** Published on the bus channel ZONE_CHANGED_CHANNEL after every committed change to a zone. */
export interface ZoneChangedEvent {
  readonly zoneId: number;
  readonly domain: string;
  readonly serial: number;
  readonly deleted: boolean;
  /**
   * Publisher's wall clock (ms since the epoch) when the event was sent: DNS nodes report the
   * difference to their own clock as bus lag. Absent from events of publishers that predate it.
   */
  readonly publishedAtMs?: number;
  /**
   * The owner names (stored form) whose records the change touched, when it touched records only:
   * a DNS node serving `previousSerial` may then reload just those names. Absent: anything in the
   * zone may have changed (settings, load balancing, DNSSEC, an import), reload it whole.
   */
  readonly names?: readonly string[];
  /** The serial the change started from (set with `names`). */
  readonly previousSerial?: number;
}

export const ZONE_CHANGED_CHANNEL = 'dns.zone-changed';
