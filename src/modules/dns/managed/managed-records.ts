/**
 * The DNS module's interface for other modules (certificates, platform domains, mail): find the
 * hosted zone that holds a name, and write records the module owns. Managed records are served,
 * listed and exported like any other, but users cannot change or delete them (409
 * `Record is managed by <module>`); they go when their module removes them or with their zone.
 */
export interface HostedZone {
  readonly zoneId: number;
  readonly domain: string;
  /** The account that holds the zone (for an organization's zone, the one that created it). */
  readonly userId: number;
  readonly orgId: number | null;
}

export interface ManagedRecord {
  readonly id: number;
  readonly zoneId: number;
  /** Fully qualified, without the trailing dot. */
  readonly name: string;
  readonly type: string;
  readonly content: string;
  readonly ttl: number;
}

export interface ManagedRecordInput {
  /** Fully qualified (with or without the trailing dot) or relative to the zone; '@' is the apex. */
  readonly name: string;
  readonly type: string;
  /** Presentation form, as the record routes take it. */
  readonly content: string;
  readonly ttl?: number;
}

export interface ManagedRecords {
  /** The hosted zone whose domain is `name` or its closest enclosing domain; null when none. */
  findZoneFor(name: string): Promise<HostedZone | null>;
  /**
   * Makes `records` exactly the set of records `module` owns at their (name, type) pairs in the
   * zone: adds what is missing, removes the module's other records at those pairs, in one zone
   * change. Validated as the record routes validate (422/409 on a refusal).
   */
  put(module: string, zoneId: number, records: readonly ManagedRecordInput[]): Promise<ManagedRecord[]>;
  /** Removes the module's records at `name` (of `type`, when given) in the zone; answers how many. */
  remove(module: string, zoneId: number, name: string, type?: string): Promise<number>;
  /** The module's records, in one zone or everywhere. */
  list(module: string, zoneId?: number): Promise<ManagedRecord[]>;
  /** Removes every record of the module (in one zone, or everywhere); answers how many. */
  cleanup(module: string, zoneId?: number): Promise<number>;
}
