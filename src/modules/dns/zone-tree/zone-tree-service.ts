import type { AuditTables } from '../../../kernel/audit/audit-log.ts';
import { joinTransaction } from '../../../kernel/db/unit-of-work.ts';
import type { DnsContext } from '../dns-context.ts';
import type { ZoneRow } from '../dns-tables.ts';
import { ancestorsOf, sameHolder } from '../managed/zone-delegations.ts';
import { isPublicSuffix, normaliseZoneDomain } from '../shared/zone-domain.ts';
import { ZonesRepository } from '../zones/zones-repository.ts';
import type { DelegationSync } from '../zones/zones-service.ts';
import type { ZoneTarget, ZoneTree } from '../dns-interfaces.ts';

type Holding = Pick<ZoneRow, 'user_id' | 'org_id'>;

function holderText(z: Holding): string {
  if (z.user_id === null) return 'platform';
  return z.org_id !== null ? `organization ${Number(z.org_id)}` : `account ${Number(z.user_id)}`;
}

/** One holder as check-zones compares them: the platform's zones are all one holder's. */
function holderKey(z: Holding): string {
  return z.user_id === null ? 'platform' : holderText(z);
}

/**
 * Platform staff's view of the zone tree (`npm run dns -- check-zones | transfer-zone`): which
 * zones break the rules the API now keeps (no public suffix, no zone inside or above another
 * holder's), and moving a zone to its rightful holder.
 */
export class ZoneTreeService implements ZoneTree {
  constructor(
    private readonly ctx: DnsContext,
    private readonly delegations: DelegationSync,
  ) {}

  /** One line per zone that breaks a rule; deletes and changes nothing. */
  async check(): Promise<string[]> {
    const zones = await new ZonesRepository(this.ctx.db).listAll();
    const byDomain = new Map(zones.map((z) => [z.domain, z]));
    const lines: string[] = [];
    for (const z of zones) {
      // The platform may host a suffix of its own (platform domains); an account may not.
      if (z.user_id !== null && isPublicSuffix(z.domain))
        lines.push(`${z.domain} (${holderText(z)}): a public suffix`);
      const clash = ancestorsOf(z.domain)
        .map((a) => byDomain.get(a))
        .find(
          (a) =>
            a !== undefined &&
            holderKey(a) !== holderKey(z) &&
            // A claim a module hands out under its platform zone (platform domains) is delegated so.
            !(a.user_id === null && z.managed_by !== null && a.managed_by === z.managed_by),
        );
      if (clash !== undefined)
        lines.push(`${z.domain} (${holderText(z)}): inside ${clash.domain} (${holderText(clash)})`);
    }
    return lines;
  }

  /**
   * Moves the zone, with the zones below it of the same holder, to `target`, in one transaction
   * with its audit entries (`dns.zone.transfer`, one per organization concerned); refused when
   * the zone is managed by a module or a public suffix, or when it would then sit inside or above
   * a zone of another holder. The delegations around it follow.
   */
  async transfer(domainInput: string, target: ZoneTarget): Promise<string> {
    const check = normaliseZoneDomain(domainInput);
    if (!check.ok) throw new Error(`${domainInput}: ${check.reason}`);
    const domain = check.domain;
    return this.ctx.transaction(async (uow) => {
      const repo = new ZonesRepository(uow.trx);
      await repo.lockZoneTree(domain);
      const zone = await repo.findByDomain(domain);
      if (zone === null) throw new Error(`${domain}: no such zone`);
      if (zone.managed_by !== null) throw new Error(`${domain}: managed by ${zone.managed_by}, not moved`);
      if (isPublicSuffix(domain)) throw new Error(`${domain}: a public suffix, no holder may have it`);
      const to = { user_id: target.userId, org_id: target.orgId };
      if (sameHolder(zone, to)) throw new Error(`${domain}: already held by ${target.label}`);
      const moving = (await repo.listSubtree(domain)).filter(
        (z) => z.managed_by === null && sameHolder(z, zone),
      );
      await repo.setHolder(
        moving.map((z) => Number(z.id)),
        { userId: target.userId, orgId: target.orgId },
      );
      for (const z of moving) {
        const others = await repo.findRelatedOfOthers(
          { userId: target.userId, orgId: target.orgId },
          z.domain,
        );
        if (others.length > 0)
          throw new Error(`${domain}: ${z.domain} would be inside or above ${others[0]}, held by another`);
      }
      await this.delegations.syncAround(uow, domain);
      const orgs = new Set([zone.org_id, target.orgId].map((o) => (o === null ? null : Number(o))));
      for (const orgId of orgs) {
        await this.ctx.audit.record(
          {
            orgId,
            actorUserId: null,
            // Platform staff at the command line: not an organization's `staff` realm, no account.
            actorRealm: 'platform',
            action: 'dns.zone.transfer',
            resourceId: Number(zone.id),
            ip: null,
          },
          joinTransaction<AuditTables>(uow.trx),
        );
      }
      const below = moving.filter((z) => z.id !== zone.id).map((z) => z.domain);
      return (
        `${domain}: moved from ${holderText(zone)} to ${target.label}` +
        (below.length > 0 ? ` with ${below.join(', ')}` : '')
      );
    });
  }
}
