import type { Kysely, Transaction } from 'kysely';
import type { Clock } from '../../../kernel/clock.ts';
import { notFound } from '../../../kernel/errors/app-error.ts';
import type { ZoneChangePublisher } from '../publishing/zone-change-publisher.ts';
import type { DnsTables, ZoneRow } from '../shared/dns-tables.ts';
import { nextSerial } from '../shared/zone-serial.ts';
import { lockZone, setZoneSerial } from './zones-repository.ts';

export const ZONE_NOT_FOUND = 'Zone not found';

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

/**
 * Runs one change to a zone: in a transaction, with the zone row locked and its ownership
 * checked, then moves the serial (RFC 1982) and, once committed, publishes the zone-changed
 * event. Every write to a zone's data goes through here, so none forgets the serial or the event.
 */
export class ZoneChanges {
  private readonly committedHooks: ZoneCommittedHook[] = [];

  constructor(
    private readonly db: Kysely<DnsTables>,
    private readonly clock: Clock,
    private readonly publisher: ZoneChangePublisher,
  ) {}

  /** Hooks run after the event is published; they must not throw and run their work detached. */
  onCommitted(hook: ZoneCommittedHook): void {
    this.committedHooks.push(hook);
  }

  async apply<T>(
    userId: number,
    zoneId: number,
    change: (trx: Transaction<DnsTables>, zone: ZoneRow) => Promise<ZoneChangeResult<T>>,
  ): Promise<T> {
    const outcome = await this.db.transaction().execute(async (trx) => {
      const zone = await lockZone(trx, zoneId);
      if (!zone || zone.user_id !== userId) throw notFound(ZONE_NOT_FOUND);
      const result = await change(trx, zone);
      if (!result.changed) return { result, zone, serial: zone.serial };
      const serial = nextSerial(Number(zone.serial), this.clock.now());
      await setZoneSerial(trx, zone.id, serial);
      return { result, zone, serial };
    });
    if (outcome.result.changed) {
      const names = outcome.result.names;
      await this.publisher.publish({
        zoneId: outcome.zone.id,
        domain: outcome.zone.domain,
        serial: outcome.serial,
        deleted: false,
        ...(names !== undefined
          ? { names: [...new Set(names)], previousSerial: Number(outcome.zone.serial) }
          : {}),
      });
      const change = {
        zoneId: outcome.zone.id,
        previousSerial: Number(outcome.zone.serial),
        serial: outcome.serial,
      };
      for (const hook of this.committedHooks) hook(change);
    }
    return outcome.result.value;
  }
}
