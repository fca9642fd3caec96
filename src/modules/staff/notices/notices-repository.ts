import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';
import type { NoticeRow, NoticeUpdateRow, StaffTables } from '../staff-tables.ts';

type Db = Kysely<StaffTables> | Transaction<StaffTables>;

/** Notice rows as read: ids as numbers whatever the driver answers for bigint. */
function noticeRow<T extends { id: unknown; org_id: unknown; created_by: unknown }>(row: T) {
  return {
    ...row,
    id: Number(row.id),
    org_id: Number(row.org_id),
    created_by: row.created_by === null ? null : Number(row.created_by),
  };
}

export type NoticeRecord = Omit<NoticeRow, 'id'> & { id: number };
export type NoticeUpdateRecord = Omit<NoticeUpdateRow, 'id'> & { id: number };

/** An organization's notices and the updates posted on them. */
export class NoticesRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<StaffTables>): NoticesRepository {
    return new NoticesRepository(trx);
  }

  async list(orgId: number, status?: string): Promise<NoticeRecord[]> {
    let q = this.db.selectFrom('staff_notices').selectAll().where('org_id', '=', orgId);
    if (status !== undefined) q = q.where('status', '=', status);
    const rows = await q.orderBy('id', 'desc').execute();
    return rows.map((r) => noticeRow(r) as NoticeRecord);
  }

  async find(orgId: number, id: number, lock = false): Promise<NoticeRecord | null> {
    let q = this.db.selectFrom('staff_notices').selectAll().where('org_id', '=', orgId).where('id', '=', id);
    if (lock) q = q.forUpdate();
    const row = await q.executeTakeFirst();
    return row === undefined ? null : (noticeRow(row) as NoticeRecord);
  }

  /** Notices of `statuses` for one of `audiences`, maybe of one placement; newest first. */
  async shown(
    orgId: number,
    statuses: readonly string[],
    audiences: readonly string[],
    placement?: string,
  ): Promise<NoticeRecord[]> {
    let q = this.db
      .selectFrom('staff_notices')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('status', 'in', statuses)
      .where('audience', 'in', audiences);
    if (placement !== undefined) q = q.where('placement', '=', placement);
    const rows = await q.orderBy('id', 'desc').execute();
    return rows.map((r) => noticeRow(r) as NoticeRecord);
  }

  async insert(values: Insertable<NoticeRow>): Promise<NoticeRecord> {
    const row = await this.db
      .insertInto('staff_notices')
      .values(values)
      .returningAll()
      .executeTakeFirstOrThrow();
    return noticeRow(row) as NoticeRecord;
  }

  async update(id: number, values: Updateable<NoticeRow>): Promise<NoticeRecord> {
    const row = await this.db
      .updateTable('staff_notices')
      .set(values)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return noticeRow(row) as NoticeRecord;
  }

  async remove(orgId: number, id: number): Promise<boolean> {
    const res = await this.db
      .deleteFrom('staff_notices')
      .where('org_id', '=', orgId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  async addUpdate(values: Insertable<NoticeUpdateRow>): Promise<NoticeUpdateRecord> {
    const row = await this.db
      .insertInto('staff_notice_updates')
      .values(values)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { ...row, id: Number(row.id), notice_id: Number(row.notice_id) } as NoticeUpdateRecord;
  }

  /** The updates of these notices, oldest first. */
  async updatesOf(noticeIds: readonly number[]): Promise<NoticeUpdateRecord[]> {
    if (noticeIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('staff_notice_updates')
      .selectAll()
      .where('notice_id', 'in', noticeIds)
      .orderBy('id', 'asc')
      .execute();
    return rows.map(
      (r) =>
        ({
          ...r,
          id: Number(r.id),
          notice_id: Number(r.notice_id),
          created_by: r.created_by === null ? null : Number(r.created_by),
        }) as NoticeUpdateRecord,
    );
  }
}
