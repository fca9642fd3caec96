import type { Transaction } from 'kysely';
import { joinTransaction } from '../../../kernel/db/unit-of-work.ts';
import type { ZoneAccess, ZoneActor, ZoneChangeResult, ZoneChangeScope, ZoneRef } from '../../dns/index.ts';
import type { LoadBalancingTables } from '../load-balancing-tables.ts';

/** The zone a change runs in, with what this module reads of the zone's own data there. */
export interface ZoneInChange extends ZoneRef {
  /** Whether the zone holds a record of one of `types` at `name` (read in the change's transaction). */
  hasRecords(name: string, types: readonly number[]): Promise<boolean>;
}

/**
 * Pools, members and load balancers are zone data: each change of them is a zone change of the
 * DNS module (the zone locked, its serial moved, DNS nodes told), and this module's rows are
 * written in that same transaction, seen through this module's tables.
 */
export function inZone<T>(
  zones: ZoneAccess,
  actor: ZoneActor,
  zoneId: number,
  work: (trx: Transaction<LoadBalancingTables>, zone: ZoneInChange) => Promise<ZoneChangeResult<T>>,
): Promise<T> {
  return zones.change(actor, zoneId, (scope: ZoneChangeScope) =>
    work(joinTransaction<LoadBalancingTables>(scope.trx), { ...scope.zone, hasRecords: scope.hasRecords }),
  );
}
