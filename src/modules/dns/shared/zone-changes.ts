import { sql, type Transaction } from 'kysely';
import { canAccess, type OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import { forbiddenRole } from '../../../kernel/errors/kernel-errors.ts';
import type { DnsContext } from '../dns-context.ts';
import { zoneChanged } from '../dns-events.ts';
import { zoneNotFound } from '../dns-errors.ts';
import type { DnsTables, ZoneRow } from '../dns-tables.ts';
import { nextSerial } from './zone-serial.ts';

/** Who makes a zone change: a caller within their owner scope, or the platform itself (jobs). */
export type ZoneActor = OwnerScope | 'platform';

/** Told of each committed change that moved a zone's serial (zone transfers: history, NOTIFY). */
export type ZoneCommittedHook = (change: { zoneId: number; previousSerial: number; serial: number }) => void;

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

export type ZoneChange<T> = (trx: Transaction<DnsTables>, zone: ZoneRow) => Promise<ZoneChangeResult<T>>;

/**
 * Checks that `actor` may read (or write) `zone`: another tenant's zone is absent (404); a zone
 * the actor may read but not change (an organization's `member`) is 403.
 */
export function assertZoneAccess(
  actor: ZoneActor,
  zone: ZoneRow | null | undefined,
  write: boolean,
): ZoneRow {
  if (!zone) throw zoneNotFound();
  if (actor === 'platform') return zone;
  if (!canAccess(actor, zone, 'read')) throw zoneNotFound();
  if (write && !canAccess(actor, zone, 'write')) throw forbiddenRole();
  return zone;
}

/**
 * Runs one change to a zone as a unit of work: in a transaction, with the zone row locked and the
 * actor's access checked, then moves the serial (RFC 1982) and, once committed, announces the
 * zone-changed event. Every write to a zone's data goes through here, so none forgets the serial
 * or the event.
 */
export class ZoneChanges {
  private readonly committedHooks: ZoneCommittedHook[] = [];

  constructor(private readonly ctx: DnsContext) {}

  /** Hooks run after the event is published; they must not throw and run their work detached. */
  onCommitted(hook: ZoneCommittedHook): void {
    this.committedHooks.push(hook);
  }

  async apply<T>(actor: ZoneActor, zoneId: number, change: ZoneChange<T>): Promise<T> {
    return this.ctx.transaction(async (uow) => {
      const zone = assertZoneAccess(actor, await lockZone(uow.trx, zoneId), true);
      const result = await change(uow.trx, zone);
      if (!result.changed) return result.value;
      const previousSerial = Number(zone.serial);
      const serial = nextSerial(previousSerial, this.ctx.clock.now());
      await uow.trx
        .updateTable('dns_zones')
        .set({ serial, updated_at: sql<Date>`now()` })
        .where('id', '=', zone.id)
        .execute();
      const names = result.names;
      // Stamped when published: DNS nodes measure the bus lag from it.
      uow.emit(zoneChanged, () => ({
        zoneId: zone.id,
        domain: zone.domain,
        serial,
        deleted: false,
        publishedAtMs: Date.now(),
        ...(names !== undefined ? { names: [...new Set(names)], previousSerial } : {}),
      }));
      uow.afterCommit(() => {
        for (const hook of this.committedHooks) hook({ zoneId: zone.id, previousSerial, serial });
      });
      return result.value;
    });
  }
}

/**
 * Locks the zone row for the rest of the transaction, so changes to one zone are checked and
 * applied one at a time (the rules look at the whole zone).
 */
export async function lockZone(trx: Transaction<DnsTables>, zoneId: number): Promise<ZoneRow | null> {
  const row = await trx
    .selectFrom('dns_zones')
    .selectAll()
    .where('id', '=', zoneId)
    .forUpdate()
    .executeTakeFirst();
  return row ?? null;
}
