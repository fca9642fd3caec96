/**
 * The DNS module's interface for other modules (certificates, platform domains, mail): find the
 * hosted zone that holds a name, and write records the module owns. Managed records are served,
 * listed and exported like any other, but users cannot change or delete them (409
 * `Record is managed by <module>`); they go when their module removes them or with their zone.
 */
export interface HostedZone {
  readonly zoneId: number;
  readonly domain: string;
  /**
   * The account that holds the zone (for an organization's zone, the one that created it); null
   * for a zone the platform holds for a module (see ManagedZones).
   */
  readonly userId: number | null;
  readonly orgId: number | null;
  /** The module that manages the zone itself (ManagedZones), else null. */
  readonly managedBy: string | null;
}

/**
 * Zones a module holds or hands out (platform domains): the platform's own suffix zones, which no
 * account can see, change, or create a zone at or under; and zones of an account directly under
 * one of them, whose records the account edits but which only the module deletes (409
 * `Zone is managed by <module>` on the zone routes).
 */
export interface ManagedZones {
  /** The platform-held zone `domain` of `module`, created when absent; null when an account holds it. */
  ensurePlatformZone(module: string, domain: string): Promise<HostedZone | null>;
  /**
   * A zone of `holder` at `domain`, directly under a platform zone of `module`, managed by
   * `module`. 409 `Zone already exists` when the name is taken.
   */
  createDelegatedZone(
    module: string,
    holder: { readonly userId: number },
    domain: string,
  ): Promise<HostedZone>;
  /** Deletes a zone `module` manages (and its records); false when there is none. */
  deleteZone(module: string, zoneId: number): Promise<boolean>;
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
