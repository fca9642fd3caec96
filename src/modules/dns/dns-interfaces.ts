/**
 * What the DNS module offers other modules, and the registry entries it takes from them. The
 * module's index exports these; `docs/architecture.md` lists who uses which.
 */
import type { Transaction } from 'kysely';
import type {
  QueryStatsSink,
  ZoneChangedEvent,
  ZoneSource,
  ZoneSteering,
  ZoneVersionSource,
} from '../../dns/index.ts';
import type { Access, OwnerScope } from '../../kernel/auth/owner-scope.ts';
import type { Unsubscribe } from '../../kernel/events/domain-events.ts';

// --- Hosted zones and the records other modules own (certificates, platform domains, mail) ---

/** A zone hosted here, as another module sees it. */
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
   * `module`. 409 `Zone already exists` when the name is taken, 409 `Zone is inside a zone held by
   * another account` when another holds a zone below it.
   */
  createDelegatedZone(
    module: string,
    holder: { readonly userId: number },
    domain: string,
  ): Promise<HostedZone>;
  /** Deletes a zone `module` manages (and its records); false when there is none. */
  deleteZone(module: string, zoneId: number): Promise<boolean>;
}

/** A record a module owns in a hosted zone. */
export interface ManagedRecord {
  readonly id: number;
  readonly zoneId: number;
  /** Fully qualified, without the trailing dot. */
  readonly name: string;
  readonly type: string;
  readonly content: string;
  readonly ttl: number;
}

/** A record as a module asks for it. */
export interface ManagedRecordInput {
  /** Fully qualified (with or without the trailing dot) or relative to the zone; '@' is the apex. */
  readonly name: string;
  readonly type: string;
  /** Presentation form, as the record routes take it. */
  readonly content: string;
  readonly ttl?: number;
}

/** A TXT record at a name as a module editing the name's texts sees it. */
export interface TxtAt {
  readonly id: number;
  /** Its strings joined (RFC 7208 §3.3 reads a multi-string record so). */
  readonly text: string;
  /** The module that holds it, or null for the zone holder's own record. */
  readonly managedBy: string | null;
}

/**
 * What to do with the TXT records at a name: `id` null adds a record held by the module; `text`
 * null deletes the record (only one the module holds); otherwise the record's text becomes `text`.
 */
export interface TxtEdit {
  readonly id: number | null;
  readonly text: string | null;
}

/**
 * Find the hosted zone that holds a name, and write records the calling module owns there.
 * Managed records are served, listed and exported like any other, but users cannot change or
 * delete them (409 `Record is managed by <module>`); they go when their module removes them or
 * with their zone.
 */
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
  /**
   * Edits the TXT records at `name` in one zone change (the zone locked while `edit` reads them):
   * a module's part of a record the zone holder keeps (an SPF include, RFC 7208 §5.2) is added or
   * taken out without replacing the holder's record. Answers what `edit` answered.
   */
  editTxt<T>(
    module: string,
    zoneId: number,
    name: string,
    edit: (records: readonly TxtAt[]) => { readonly edits: readonly TxtEdit[]; readonly value: T },
  ): Promise<T>;
}

// --- Zones as the data they hold (load balancing) ---

/** Who changes a zone: a caller within their owner scope, or the platform itself (jobs). */
export type ZoneActor = OwnerScope | 'platform';

/** A zone as another module sees it. */
export interface ZoneRef {
  readonly id: number;
  /** The zone's name: lower case, no trailing dot. */
  readonly domain: string;
}

/** What a zone change answers: its value, whether it changed anything, and which names. */
export interface ZoneChangeResult<T> {
  readonly value: T;
  /** false when the change turned out to change nothing (the serial then stays). */
  readonly changed: boolean;
  /**
   * The owner names whose records the change touched, when it touched nothing else: DNS nodes
   * then reload only those names (ZoneChangedEvent.names). Absent: the whole zone is reloaded.
   */
  readonly names?: readonly string[];
}

/** One change to a zone as the module that makes it sees it, inside the zone's transaction. */
export interface ZoneChangeScope {
  /**
   * The change's transaction, the zone row locked: the other module's repositories join it
   * (`joinTransaction`), so its rows and the zone's serial change together or not at all.
   */
  readonly trx: Transaction<unknown>;
  readonly zone: ZoneRef;
  /** Whether the zone holds a record of one of `types` (RR type codes) at `name`, read in this transaction. */
  hasRecords(name: string, types: readonly number[]): Promise<boolean>;
}

/**
 * Zones for a module that keeps data inside them (load balancing): reads checked as the DNS
 * routes check them (another tenant's zone is 404 `Zone not found`, a member's write 403), and
 * changes run as zone changes — the zone locked, the serial moved, DNS nodes told once committed.
 */
export interface ZoneAccess {
  /** The zone if `actor` may read it (write: change it). */
  find(actor: ZoneActor, zoneId: number, write?: boolean): Promise<ZoneRef>;
  change<T>(
    actor: ZoneActor,
    zoneId: number,
    work: (scope: ZoneChangeScope) => Promise<ZoneChangeResult<T>>,
  ): Promise<T>;
  /** The organization holding the zone (null: an account's own, or no such zone), for the audit log. */
  orgOf(zoneId: number): Promise<number | null>;
}

/**
 * A name another module holds in a zone (a load balancer's hostname): record types that cannot
 * sit there. `refuse(type)` answers the 409 message, or null when the type may coexist.
 */
export interface NameClaim {
  refuse(type: number): string | null;
}

/** An entry of the name-claim registry: the names a module holds in a zone, read in the zone change's transaction. */
export type NameClaimSource = (
  zoneId: number,
  trx: Transaction<unknown>,
) => Promise<ReadonlyMap<string, NameClaim>>;

/** Who holds a zone, when the caller may see (read) or change (write) it (resource tags). */
export interface ZoneHolders {
  holderOf(
    owner: OwnerScope,
    zoneId: number,
    access: Access,
  ): Promise<{ readonly userId: number; readonly orgId: number | null } | null>;
}

// --- Publishing: what a DNS node reads to serve the zones ---

/** The load-balancing configuration of one zone, or of every zone (undefined), by zone id. */
export interface ZoneSteeringSource {
  load(zoneId?: number): Promise<Map<number, ZoneSteering>>;
}

/** What a DNS node reads of the DNS module to serve the zones and keep them current. */
export interface DnsPublishing {
  /** Every zone as the data plane serves it: records, apex SOA/NS, DNSSEC material, steering, transfer policy. */
  readonly zones: ZoneSource;
  /** Each zone's serial (the node's check that it missed no change). */
  serials(): Promise<Map<number, number>>;
  /** Every committed zone change. */
  onZoneChanged(handler: (event: ZoneChangedEvent) => void): Promise<Unsubscribe>;
  /** The versions of transferred zones kept for IXFR. */
  readonly transferHistory: ZoneVersionSource;
  /** Where the data plane's per-zone query counts go (the stats route reads them). */
  readonly statsSink: QueryStatsSink;
  /** The sealing context of a zone's DNSSEC private key (the node's snapshot file seals keys with it). */
  keyContext(zoneId: number, role: 'ksk' | 'zsk'): string;
}

/** The account or organization a zone moves to, as platform staff named it. */
export interface ZoneTarget {
  readonly userId: number;
  /** null: the account's own zone. */
  readonly orgId: number | null;
  /** How the command names it (`account bob@example.com`, `organization acme`). */
  readonly label: string;
}

/** Platform staff's commands on the zone tree (`npm run dns -- check-zones | transfer-zone`). */
export interface ZoneTree {
  /** One line per zone that breaks a zone-tree rule; changes nothing. */
  check(): Promise<string[]>;
  /** Moves a zone (and the same holder's zones below it) to `target`, audited; throws why not. */
  transfer(domain: string, target: ZoneTarget): Promise<string>;
}
