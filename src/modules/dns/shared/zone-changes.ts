import type { Transaction } from 'kysely';
import { canAccess } from '../../../kernel/auth/owner-scope.ts';
import type { ZoneActor, ZoneChangeResult } from '../dns-interfaces.ts';
import { forbiddenRole } from '../../../kernel/errors/kernel-errors.ts';
import type { DnsContext } from '../dns-context.ts';
import { zoneChanged } from '../dns-events.ts';
import { zoneNotFound } from '../dns-errors.ts';
import type { DnsTables, ZoneRow } from '../dns-tables.ts';
import { nextSerial } from './zone-serial.ts';
import { ZoneChangesRepository } from './zone-changes-repository.ts';
import type { UnitOfWork } from '../../../kernel/db/unit-of-work.ts';

/** Told of each committed change that moved a zone's serial (zone transfers: history, NOTIFY). */
export type ZoneCommittedHook = (change: { zoneId: number; previousSerial: number; serial: number }) => void;

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
    return this.ctx.transaction(async (uow) => this.applyIn(uow, actor, zoneId, change));
  }

  /** apply() inside a unit of work already open (a zone created or deleted beside it). */
  async applyIn<T>(
    uow: UnitOfWork<DnsTables>,
    actor: ZoneActor,
    zoneId: number,
    change: ZoneChange<T>,
  ): Promise<T> {
    const rows = new ZoneChangesRepository(uow.trx);
    const zone = assertZoneAccess(actor, await rows.lock(zoneId), true);
    const result = await change(uow.trx, zone);
    if (!result.changed) return result.value;
    const previousSerial = Number(zone.serial);
    const serial = nextSerial(previousSerial, this.ctx.clock.now());
    await rows.setSerial(zone.id, serial);
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
  }
}
