import type { Kysely, Transaction } from 'kysely';
import type { ObjectStorageTables, UsageMarkRow, UsageRow } from '../object-storage-tables.ts';

type Db = Kysely<ObjectStorageTables> | Transaction<ObjectStorageTables>;

/** A reading of the usage log: transfer and requests, in bytes and counts. */
export interface Transfer {
  readonly bytesIn: number;
  readonly bytesOut: number;
  readonly requests: number;
}

/** Where a service's usage log was last read: the gateway hour and what of it was counted. */
export interface UsageMark extends Transfer {
  readonly logHour: Date;
}

/** bigint columns arrive as strings from PostgreSQL: numbers here. */
function usageOf(r: UsageRow): UsageRow {
  return {
    service_id: Number(r.service_id),
    hour: new Date(r.hour),
    bytes: Number(r.bytes),
    objects: Number(r.objects),
    bytes_in: Number(r.bytes_in),
    bytes_out: Number(r.bytes_out),
    requests: Number(r.requests),
  };
}

function markOf(r: UsageMarkRow): UsageMark {
  return {
    logHour: new Date(r.log_hour),
    bytesIn: Number(r.bytes_in),
    bytesOut: Number(r.bytes_out),
    requests: Number(r.requests),
  };
}

/** The hourly meter's readings (one row per service and hour) and its marks in the usage log. */
export class UsageRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<ObjectStorageTables>): UsageRepository {
    return new UsageRepository(trx);
  }

  /** Which of `serviceIds` already have a reading of `hour`. */
  async readIn(hour: Date, serviceIds: readonly number[]): Promise<Set<number>> {
    if (serviceIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('object_storage_usage')
      .select('service_id')
      .where('hour', '=', hour)
      .where('service_id', 'in', serviceIds as number[])
      .execute();
    return new Set(rows.map((r) => Number(r.service_id)));
  }

  async mark(serviceId: number): Promise<UsageMark | null> {
    const row = await this.db
      .selectFrom('object_storage_usage_marks')
      .selectAll()
      .where('service_id', '=', serviceId)
      .executeTakeFirst();
    return row === undefined ? null : markOf(row);
  }

  /** The hour's reading; false (nothing written) when the hour already has one of the service. */
  async insert(row: UsageRow): Promise<boolean> {
    const inserted = await this.db
      .insertInto('object_storage_usage')
      .values(row)
      .onConflict((oc) => oc.columns(['service_id', 'hour']).doNothing())
      .returning('service_id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  /**
   * Moves the service's mark from `previous` (null: none yet) to `next`; false, and nothing
   * changed, when another reading moved it meanwhile (its transfer would be counted twice).
   */
  async advanceMark(serviceId: number, previous: UsageMark | null, next: UsageMark): Promise<boolean> {
    const values = {
      log_hour: next.logHour,
      bytes_in: next.bytesIn,
      bytes_out: next.bytesOut,
      requests: next.requests,
    };
    if (previous === null) {
      const inserted = await this.db
        .insertInto('object_storage_usage_marks')
        .values({ service_id: serviceId, ...values })
        .onConflict((oc) => oc.column('service_id').doNothing())
        .returning('service_id')
        .executeTakeFirst();
      return inserted !== undefined;
    }
    const updated = await this.db
      .updateTable('object_storage_usage_marks')
      .set(values)
      .where('service_id', '=', serviceId)
      .where('log_hour', '=', previous.logHour)
      .where('bytes_in', '=', previous.bytesIn)
      .where('bytes_out', '=', previous.bytesOut)
      .where('requests', '=', previous.requests)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) === 1;
  }

  /** The service's readings of the hours from `from` to `to` (both included), oldest first. */
  async between(serviceId: number, from: Date, to: Date): Promise<UsageRow[]> {
    const rows = await this.db
      .selectFrom('object_storage_usage')
      .selectAll()
      .where('service_id', '=', serviceId)
      .where('hour', '>=', from)
      .where('hour', '<=', to)
      .orderBy('hour')
      .execute();
    return rows.map((r) => usageOf(r));
  }
}
