import { RR_TYPE } from '../../../dns/index.ts';
import type { UnitOfWork } from '../../../kernel/db/unit-of-work.ts';
import type { DnsTables, ZoneRow } from '../dns-tables.ts';
import type { RecordsRepository } from '../records/records-repository.ts';
import type { RecordsService } from '../records/records-service.ts';
import type { ZoneChanges } from '../shared/zone-changes.ts';
import { ZonesRepository } from '../zones/zones-repository.ts';
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
    private readonly records: RecordsService,
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

  /** Makes the zone's managed NS records exactly those of `children` (unchanged ones stay). */
  private async write(
    uow: UnitOfWork<DnsTables>,
    zoneId: number,
    children: readonly string[],
  ): Promise<void> {
    await this.changes.applyIn(uow, 'platform', zoneId, async (trx, zone) => {
      const repo = this.recordsRepo.withTx(trx);
      const wanted = new Set(children.flatMap((c) => this.nameservers.map((ns) => `${c} ${ns}.`)));
      const present = new Set<string>();
      const touched = new Set<string>();
      for (const r of await repo.listManaged(DELEGATION_MANAGER, zone.id)) {
        const key = `${r.name} ${r.content}`;
        if (r.type_code === RR_TYPE.NS && wanted.has(key) && !present.has(key)) present.add(key);
        else {
          await repo.delete(r.id);
          touched.add(r.name);
        }
      }
      for (const child of children) {
        for (const ns of this.nameservers) {
          if (present.has(`${child} ${ns}.`)) continue;
          // The holder's own identical NS record already delegates: it stays theirs.
          const own = await repo.list(zone.id, { typeCode: RR_TYPE.NS, name: child }, 1000, 0);
          if (own.some((r) => r.content === `${ns}.`)) continue;
          const body = { name: `${child}.`, type: 'NS', content: `${ns}.`, ttl: NS_TTL };
          await this.records.insertIn(trx, zone, body, DELEGATION_MANAGER);
          touched.add(child);
        }
      }
      // A name no longer delegated keeps no DS: RFC 4035 §2.4 puts DS only at a delegation point.
      for (const name of touched) {
        if (children.includes(name)) continue;
        if ((await repo.list(zone.id, { typeCode: RR_TYPE.NS, name }, 1, 0)).length > 0) continue;
        for (const ds of await repo.list(zone.id, { typeCode: RR_TYPE.DS, name }, 1000, 0))
          await repo.delete(ds.id);
      }
      return { value: undefined, changed: touched.size > 0, names: [...touched] };
    });
  }
}
