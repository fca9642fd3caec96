import { orgRoleAllows, type OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import { forbiddenRole } from '../../../kernel/errors/kernel-errors.ts';
import type { OrgDirectory } from '../../orgs/index.ts';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import { pageOffset } from '../../../kernel/paging/paging.ts';
import type { DnsContext } from '../dns-context.ts';
import {
  zoneExists,
  zoneHeldByAnother,
  zoneLimitReached,
  zoneManaged,
  zoneOrgNotFound,
  zoneServiceInactive,
  zoneServiceNotFound,
} from '../dns-errors.ts';
import type { ServiceDirectory } from '../../services/index.ts';

/** The catalogue `module_name` of DNS hosting (its provisioner: dns-hosting-provisioner.ts). */
export const DNS_HOSTING = 'dns_hosting';
import type { DnsTables, ZoneRow } from '../dns-tables.ts';
import type { UnitOfWork } from '../../../kernel/db/unit-of-work.ts';
import { zoneChanged } from '../dns-events.ts';
import {
  parseDnssecAlgorithm,
  parseDnssecDenial,
  type DnssecInfo,
  type DnssecService,
} from '../dnssec/dnssec-service.ts';
import type { ZoneChanges } from '../shared/zone-changes.ts';
import { isPublicSuffix, normaliseZoneDomain, toAsciiName } from '../shared/zone-domain.ts';
import { dateSerial } from '../shared/zone-serial.ts';
import { zoneView, type ZoneView } from './zone-view.ts';
import { ZonesRepository, type ZoneHolder, type ZoneWithCount } from './zones-repository.ts';

const EMAIL = /^[^\s@]{1,64}@([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;

export type { DnssecInfo };

/** Writes the NS records zones hold for their child zones of the same holder (managed/zone-delegations.ts). */
export interface DelegationSync {
  /** In the unit of work that created, deleted or moved the zone at `domain`. */
  syncAround(uow: UnitOfWork<DnsTables>, domain: string): Promise<void>;
}

export interface ZoneUpdate {
  readonly soa_email?: string | null;
  readonly dnssec_enabled?: boolean;
  readonly dnssec_algorithm?: string | number;
  readonly dnssec_denial?: string;
}

/** Zones: create (one owner holds a domain and its parents and children), read, settings, delete. */
export class ZonesService {
  private readonly repo: ZonesRepository;

  constructor(
    private readonly ctx: DnsContext,
    private readonly changes: ZoneChanges,
    private readonly dnssecKeys: DnssecService,
    private readonly orgs: OrgDirectory,
    private readonly services: ServiceDirectory | null = null,
    /** The NS records a zone holds for its child zones of the same holder. */
    private readonly delegations: DelegationSync | null = null,
  ) {
    this.repo = new ZonesRepository(ctx.db);
  }

  /**
   * A zone of the caller's account, or (`orgSlug`) of an organization the caller owns or
   * administers; with `serviceId`, of that DNS hosting service (and its holder), within its
   * `max_zones`.
   */
  async create(
    owner: OwnerScope,
    domainInput: string,
    orgSlug?: string,
    serviceId?: number,
  ): Promise<ZoneView> {
    const check = normaliseZoneDomain(domainInput);
    if (!check.ok) throw invalidField(['body', 'domain'], check.reason, domainInput);
    // A public suffix's names belong to many registrants: a zone there would answer for them all.
    if (isPublicSuffix(check.domain))
      throw invalidField(['body', 'domain'], `Zone name is a public suffix: ${check.domain}`, domainInput);
    const orgId = orgSlug === undefined ? null : await this.orgOf(owner, orgSlug);
    if (serviceId === undefined)
      return zoneView(await this.insertZone({ userId: owner.userId, orgId }, check.domain));
    const service = await this.services?.summaryFor(owner, serviceId);
    if (service === undefined || service === null) throw zoneServiceNotFound();
    if (service.module !== DNS_HOSTING)
      throw invalidField(['body', 'service_id'], 'Not a DNS hosting service', serviceId);
    if (orgSlug !== undefined && service.orgId !== orgId)
      throw invalidField(['body', 'service_id'], 'The service is not of this organization', serviceId);
    if (service.status !== 'active') throw zoneServiceInactive();
    const max = Number(service.config.max_zones);
    const holder = { userId: service.userId, orgId: service.orgId, serviceId: service.id };
    return zoneView(
      await this.insertZone(holder, check.domain, null, undefined, async (repo) => {
        if (Number.isFinite(max) && (await repo.countOfService(service.id)) >= max)
          throw zoneLimitReached(max);
      }),
    );
  }

  /**
   * Inserts a zone and announces it. A parent or child zone held by another would let one answer
   * for the other's names: refused (409), except the zone `underZoneId` a module delegates from.
   * The check and the insert run under the zone-tree lock, so two holders creating nested zones
   * at once cannot both pass. A parent zone of the same holder delegates the new zone (and a new
   * zone delegates the same holder's zones below it).
   */
  async insertZone(
    holder: ZoneHolder,
    domain: string,
    managedBy: string | null = null,
    underZoneId?: number,
    /** Checked in the transaction before the insert (a service's zone limit). */
    admit?: (repo: ZonesRepository) => Promise<void>,
  ): Promise<ZoneWithCount> {
    return this.ctx.transaction(async (uow) => {
      const repo = this.repo.withTx(uow.trx);
      await repo.lockZoneTree(domain);
      await admit?.(repo);
      if ((await repo.findByDomain(domain)) !== null) throw zoneExists();
      if ((await repo.findRelatedOfOthers(holder, domain, underZoneId)).length > 0) throw zoneHeldByAnother();
      const zone = await repo.insert(holder, domain, dateSerial(this.ctx.clock.now()), managedBy);
      if (zone === null) throw zoneExists();
      uow.emit(zoneChanged, () => ({
        zoneId: zone.id,
        domain: zone.domain,
        serial: Number(zone.serial),
        deleted: false,
        publishedAtMs: Date.now(),
      }));
      await this.delegations?.syncAround(uow, domain);
      return zone;
    });
  }

  /** The caller's zones and their organizations' (or one organization's, with `orgSlug`). */
  async list(owner: OwnerScope, page: number, perPage: number, orgSlug?: string): Promise<ZoneView[]> {
    let scope = owner;
    if (orgSlug !== undefined) {
      const org = await this.orgs.bySlug(orgSlug);
      const role = org === null ? undefined : owner.orgRoles.get(org.id);
      if (org === null || role === undefined) return [];
      scope = { userId: -1, orgRoles: new Map([[org.id, role]]) };
    }
    return (await this.repo.listOwned(scope, 'read', perPage, pageOffset(page, perPage))).map(zoneView);
  }

  /** Zones of an organization, as live products (they must go before the organization can). */
  async orgProducts(orgId: number): Promise<{ type: string; id: number; name: string; ends: string }[]> {
    return (await this.repo.listOfOrg(orgId)).map((z) => ({
      type: 'dns_zone',
      id: Number(z.id),
      name: z.domain,
      ends: 'stops answering',
    }));
  }

  private async orgOf(owner: OwnerScope, slug: string): Promise<number> {
    const org = await this.orgs.bySlug(slug);
    const role = org === null || org.status === 'deleted' ? undefined : owner.orgRoles.get(org.id);
    if (org === null || role === undefined) throw zoneOrgNotFound();
    if (!orgRoleAllows(role, 'write')) throw forbiddenRole();
    return org.id;
  }

  async get(owner: OwnerScope, zoneId: number): Promise<ZoneView> {
    return zoneView(await this.repo.findAccessible(owner, zoneId));
  }

  async update(owner: OwnerScope, zoneId: number, body: ZoneUpdate): Promise<ZoneView> {
    let soaEmail: string | null | undefined = body.soa_email;
    if (typeof soaEmail === 'string') {
      const trimmed = soaEmail.trim();
      const at = trimmed.lastIndexOf('@');
      const ascii = at > 0 ? `${trimmed.slice(0, at)}@${toAsciiName(trimmed.slice(at + 1)) ?? ''}` : trimmed;
      if (!EMAIL.test(ascii))
        throw invalidField(['body', 'soa_email'], 'Value is not a valid email address', soaEmail);
      soaEmail = ascii.toLowerCase();
    }
    // dnssec_algorithm (ECDSAP256SHA256 | ED25519, default the first) goes with dnssec_enabled: true.
    const algorithm = parseDnssecAlgorithm(body.dnssec_algorithm);
    if (algorithm !== undefined && body.dnssec_enabled !== true) {
      throw invalidField(
        ['body', 'dnssec_algorithm'],
        'dnssec_algorithm needs dnssec_enabled: true',
        body.dnssec_algorithm,
      );
    }
    const denial = parseDnssecDenial(body.dnssec_denial);
    if (denial !== undefined && body.dnssec_enabled === false) {
      throw invalidField(['body', 'dnssec_denial'], 'dnssec_denial needs DNSSEC enabled', body.dnssec_denial);
    }
    await this.changes.apply(owner, zoneId, async (trx, zone) => {
      let changed = false;
      if (soaEmail !== undefined && soaEmail !== zone.soa_email) {
        await this.repo.withTx(trx).setSoaEmail(zone.id, soaEmail);
        changed = true;
      }
      if (body.dnssec_enabled !== undefined) {
        changed =
          (await this.dnssecKeys.setEnabled(trx, zone, body.dnssec_enabled, algorithm, denial)) || changed;
      } else if (denial !== undefined) {
        const state = await this.dnssecKeys.zoneState(trx, zone.id);
        changed = (await this.dnssecKeys.setDenial(trx, zone, state, denial)) || changed;
      }
      return { value: undefined, changed };
    });
    return this.get(owner, zoneId);
  }

  async delete(owner: OwnerScope, zoneId: number): Promise<void> {
    const zone = await this.repo.findAccessible(owner, zoneId, true);
    if (zone.managed_by !== null) throw zoneManaged(zone.managed_by);
    await this.deleteZone(zone);
  }

  /** Deletes a zone with its records and announces it; its parent then delegates its children. */
  async deleteZone(zone: ZoneRow): Promise<void> {
    await this.ctx.transaction(async (uow) => {
      const repo = this.repo.withTx(uow.trx);
      await repo.lockZoneTree(zone.domain);
      await repo.delete(zone.id);
      await this.delegations?.syncAround(uow, zone.domain);
      uow.emit(zoneChanged, () => ({
        zoneId: zone.id,
        domain: zone.domain,
        serial: Number(zone.serial),
        deleted: true,
        publishedAtMs: Date.now(),
      }));
    });
  }

  async dnssec(owner: OwnerScope, zoneId: number): Promise<DnssecInfo> {
    return this.dnssecKeys.info(await this.repo.findAccessible(owner, zoneId));
  }

  /** Starts a KSK rollover of a signed zone (409 when it is not signed or one runs). */
  async startKskRollover(owner: OwnerScope, zoneId: number): Promise<DnssecInfo> {
    await this.changes.apply(owner, zoneId, async (trx, zone) => {
      await this.dnssecKeys.startKskRollover(trx, zone);
      return { value: undefined, changed: true };
    });
    return this.dnssec(owner, zoneId);
  }
}
