import { RR_TYPE } from '../../../dns/index.ts';
import type { UnitOfWork } from '../../../kernel/db/unit-of-work.ts';
import type { DnsTables, ZoneRow } from '../dns-tables.ts';
import type { RecordsRepository } from '../records/records-repository.ts';
import type { ZoneChanges } from '../shared/zone-changes.ts';
import { ZonesRepository } from '../zones/zones-repository.ts';
import type { ManagedRecordInput } from '../dns-interfaces.ts';
import type { ManagedRecordsService } from './managed-records-service.ts';
import type { DelegationSync } from '../zones/zones-service.ts';

/** The `managed_by` of the NS records a zone holds for its child zones: the holder cannot edit them. */
export const DELEGATION_MANAGER = 'dns';
const NS_TTL = 3600;

type Holding = Pick<ZoneRow, 'user_id' | 'org_id'>;

/** Whether two zones have one holder: the same organization, or the same account's own zones. */
export function sameHolder(a: Holding, b: Holding): boolean {
  if (a.user_id === null || b.user_id === null) return false;
  if (a.org_id !== null || b.org_id !== null)
    return a.org_id !== null && b.org_id !== null && Number(a.org_id) === Number(b.org_id);
  return Number(a.user_id) === Number(b.user_id);
}

/** The strict ancestors of a name, closest first (`a.b.c` → `b.c`, `c`). */
export function ancestorsOf(domain: string): string[] {
  const labels = domain.split('.');
  return labels.slice(1).map((_, i) => labels.slice(i + 1).join('.'));
}

/**
 * The delegations a holder's zone writes for its child zones of the same holder: NS records at the
 * child's name, pointing at the platform's name servers (RFC 1034 §4.2.1: the parent's zone cut),
 * managed so that the holder cannot break them. Only the closest enclosing zone delegates a child.
 */
export class ZoneDelegations implements DelegationSync {
  constructor(
    private readonly changes: ZoneChanges,
    /** The managed records other modules write too (platform domains' delegations). */
    private readonly managed: ManagedRecordsService,
    private readonly recordsRepo: RecordsRepository,
    private readonly nameservers: readonly string[],
  ) {}

  /**
   * Brings the delegations around `domain` to what the zones now are, in the unit of work that
   * created, deleted or moved the zone there: its closest enclosing zone's and its own (if any).
   */
  async syncAround(uow: UnitOfWork<DnsTables>, domain: string): Promise<void> {
    const zones = new ZonesRepository(uow.trx);
    const ancestors = ancestorsOf(domain);
    const parent = ancestors.length > 0 ? await zones.findClosestOf(ancestors) : null;
    const tree = await zones.listSubtree(parent?.domain ?? domain);
    const byDomain = new Map(tree.map((z) => [z.domain, z]));
    const closest = (name: string): ZoneRow | undefined =>
      ancestorsOf(name)
        .map((a) => byDomain.get(a))
        .find((z) => z !== undefined);
    for (const zone of tree) {
      if (zone.domain !== domain && zone.id !== parent?.id) continue;
      const children = tree
        .filter((c) => closest(c.domain)?.id === zone.id && sameHolder(c, zone))
        .map((c) => c.domain);
      await this.write(uow, Number(zone.id), children);
    }
  }

  /** Makes the zone's delegation records exactly those of `children` (unchanged ones stay). */
  private async write(
    uow: UnitOfWork<DnsTables>,
    zoneId: number,
    children: readonly string[],
  ): Promise<void> {
    const repo = this.recordsRepo.withTx(uow.trx);
    const current = await this.managed.listIn(uow, DELEGATION_MANAGER, zoneId);
    for (const name of new Set(current.map((r) => r.name))) {
      if (children.includes(name)) continue;
      await this.managed.removeIn(uow, DELEGATION_MANAGER, zoneId, name);
      // A name no longer delegated keeps no DS: RFC 4035 §2.4 puts DS only at a delegation point.
      await this.changes.applyIn(uow, 'platform', zoneId, async (trx) => {
        const tx = this.recordsRepo.withTx(trx);
        if ((await tx.list(zoneId, { typeCode: RR_TYPE.NS, name }, 1, 0)).length > 0)
          return { value: undefined, changed: false };
        const ds = await tx.list(zoneId, { typeCode: RR_TYPE.DS, name }, 1000, 0);
        for (const r of ds) await tx.delete(r.id);
        return { value: undefined, changed: ds.length > 0, names: [name] };
      });
    }
    const inputs: ManagedRecordInput[] = [];
    for (const child of children) {
      // The holder's own identical NS record already delegates: it stays theirs.
      const own = await repo.list(zoneId, { typeCode: RR_TYPE.NS, name: child }, 1000, 0);
      for (const ns of this.nameservers) {
        if (own.some((r) => r.managed_by === null && r.content === `${ns}.`)) continue;
        inputs.push({ name: `${child}.`, type: 'NS', content: `${ns}.`, ttl: NS_TTL });
      }
    }
    if (inputs.length > 0) await this.managed.putIn(uow, DELEGATION_MANAGER, zoneId, inputs);
  }
}
