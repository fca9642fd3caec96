import type { Clock } from '../../../kernel/clock.ts';
import { conflict, invalidField, notFound } from '../../../kernel/errors/app-error.ts';
import { pageOffset } from '../../../kernel/paging/paging.ts';
import type { ZoneChangePublisher } from '../publishing/zone-change-publisher.ts';
import { normaliseZoneDomain, toAsciiName } from '../shared/zone-domain.ts';
import { dateSerial } from '../shared/zone-serial.ts';
import { ZONE_NOT_FOUND, type ZoneChanges } from './zone-change.ts';
import { zoneView, type ZoneView } from './zone-view.ts';
import { setZoneSoaEmail, type ZonesRepository } from './zones-repository.ts';
import { parseDnssecAlgorithm, type DnssecInfo, type DnssecService } from '../dnssec/dnssec-service.ts';

const EMAIL = /^[^\s@]{1,64}@([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;

export type { DnssecInfo };

export class ZonesService {
  constructor(
    private readonly repo: ZonesRepository,
    private readonly changes: ZoneChanges,
    private readonly publisher: ZoneChangePublisher,
    private readonly clock: Clock,
    private readonly dnssecKeys: DnssecService,
  ) {}

  async create(userId: number, domainInput: string): Promise<ZoneView> {
    const check = normaliseZoneDomain(domainInput);
    if (!check.ok) throw invalidField(['body', 'domain'], check.reason, domainInput);
    // A parent or child zone held by another account would let one account answer for the other's names.
    const related = await this.repo.findRelatedOfOthers(userId, check.domain);
    if (related.length > 0) throw conflict('Zone already exists');
    const zone = await this.repo.insert(userId, check.domain, dateSerial(this.clock.now()));
    if (zone === null) throw conflict('Zone already exists');
    await this.publisher.publish({
      zoneId: zone.id,
      domain: zone.domain,
      serial: Number(zone.serial),
      deleted: false,
    });
    return zoneView(zone);
  }

  async list(userId: number, page: number, perPage: number): Promise<ZoneView[]> {
    return (await this.repo.listOwned(userId, perPage, pageOffset(page, perPage))).map(zoneView);
  }

  async get(userId: number, zoneId: number): Promise<ZoneView> {
    const zone = await this.repo.findOwned(userId, zoneId);
    if (!zone) throw notFound(ZONE_NOT_FOUND);
    return zoneView(zone);
  }

  async update(
    userId: number,
    zoneId: number,
    body: { soa_email?: string | null; dnssec_enabled?: boolean; dnssec_algorithm?: string | number },
  ) {
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
    await this.changes.apply(userId, zoneId, async (trx, zone) => {
      let changed = false;
      if (soaEmail !== undefined && soaEmail !== zone.soa_email) {
        await setZoneSoaEmail(trx, zone.id, soaEmail);
        changed = true;
      }
      if (body.dnssec_enabled !== undefined) {
        changed = (await this.dnssecKeys.setEnabled(trx, zone, body.dnssec_enabled, algorithm)) || changed;
      }
      return { value: undefined, changed };
    });
    return this.get(userId, zoneId);
  }

  async delete(userId: number, zoneId: number): Promise<void> {
    const zone = await this.repo.findOwned(userId, zoneId);
    if (!zone) throw notFound(ZONE_NOT_FOUND);
    await this.repo.delete(zone.id);
    await this.publisher.publish({
      zoneId: zone.id,
      domain: zone.domain,
      serial: Number(zone.serial),
      deleted: true,
    });
  }

  async dnssec(userId: number, zoneId: number): Promise<DnssecInfo> {
    const zone = await this.repo.findOwned(userId, zoneId);
    if (!zone) throw notFound(ZONE_NOT_FOUND);
    return this.dnssecKeys.info(zone);
  }
}
