import type { DnsContext } from '../dns-context.ts';
import { normaliseZoneDomain } from '../shared/zone-domain.ts';
import { ZonesRepository } from '../zones/zones-repository.ts';
import type { ZonesService } from '../zones/zones-service.ts';
import { hostedZone } from './managed-records-service.ts';
import type { HostedZone, ManagedZones } from '../dns-interfaces.ts';

/** ManagedZones over the zones service: the same insert, conflict rule and announcements as the routes. */
export class ManagedZonesService implements ManagedZones {
  private readonly repo: ZonesRepository;

  constructor(
    ctx: DnsContext,
    private readonly zones: ZonesService,
  ) {
    this.repo = new ZonesRepository(ctx.db);
  }

  async ensurePlatformZone(module: string, domain: string): Promise<HostedZone | null> {
    const name = this.domain(domain);
    const existing = await this.repo.findByDomain(name);
    if (existing !== null) {
      return existing.user_id === null && existing.managed_by === module ? hostedZone(existing) : null;
    }
    try {
      return hostedZone(await this.zones.insertZone({ userId: null, orgId: null }, name, module));
    } catch (error) {
      // Another process created it first: answer what is there now.
      const raced = await this.repo.findByDomain(name);
      if (raced?.user_id === null && raced.managed_by === module) return hostedZone(raced);
      throw error;
    }
  }

  async createDelegatedZone(
    module: string,
    holder: { readonly userId: number },
    domain: string,
  ): Promise<HostedZone> {
    const name = this.domain(domain);
    const parentName = name.slice(name.indexOf('.') + 1);
    const parent = await this.repo.findByDomain(parentName);
    if (parent === null || parent.user_id !== null || parent.managed_by !== module) {
      throw new Error(`${module} holds no platform zone ${parentName}`);
    }
    const zone = await this.zones.insertZone(
      { userId: holder.userId, orgId: null },
      name,
      module,
      Number(parent.id),
    );
    return hostedZone(zone);
  }

  async deleteZone(module: string, zoneId: number): Promise<boolean> {
    const zone = await this.repo.find(zoneId);
    if (zone === null || zone.managed_by !== module) return false;
    await this.zones.deleteZone(zone);
    return true;
  }

  private domain(input: string): string {
    const check = normaliseZoneDomain(input);
    if (!check.ok) throw new Error(`not a zone name: ${input} (${check.reason})`);
    return check.domain;
  }
}
