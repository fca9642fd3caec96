import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { BackupRow, ComputeTables } from '../compute-tables.ts';

type Db = Kysely<ComputeTables> | Transaction<ComputeTables>;
export type Backup = Selectable<BackupRow>;

function backupOf(r: Selectable<BackupRow>): Backup {
  return {
    ...r,
    id: Number(r.id),
    size_bytes: r.size_bytes === null ? null : Number(r.size_bytes),
    created_at: new Date(r.created_at),
    finished_at: r.finished_at === null ? null : new Date(r.finished_at),
  };
}

/** An instance's backups (vzdump archives) as the platform tracks them. */
export class BackupsRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<ComputeTables>): BackupsRepository {
    return new BackupsRepository(trx);
  }

  async insert(row: Insertable<BackupRow>): Promise<Backup> {
    const r = await this.db
      .insertInto('compute_backups')
      .values(row)
      .returningAll()
      .executeTakeFirstOrThrow();
    return backupOf(r);
  }

  /** The instance's backups, oldest first. */
  async listOf(instanceUuid: string): Promise<Backup[]> {
    const rows = await this.db
      .selectFrom('compute_backups')
      .selectAll()
      .where('instance_uuid', '=', instanceUuid)
      .orderBy('id')
      .execute();
    return rows.map(backupOf);
  }

  async find(instanceUuid: string, id: number): Promise<Backup | null> {
    const r = await this.db
      .selectFrom('compute_backups')
      .selectAll()
      .where('instance_uuid', '=', instanceUuid)
      .where('id', '=', id)
      .executeTakeFirst();
    return r === undefined ? null : backupOf(r);
  }

  /** Changes a backup still running; answers whether it was. */
  async finishRunning(id: number, change: Updateable<BackupRow>): Promise<boolean> {
    const result = await this.db
      .updateTable('compute_backups')
      .set(change)
      .where('id', '=', id)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async update(id: number, change: Updateable<BackupRow>): Promise<void> {
    await this.db.updateTable('compute_backups').set(change).where('id', '=', id).execute();
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('compute_backups').where('id', '=', id).execute();
  }

  async deleteAllOf(instanceUuid: string): Promise<void> {
    await this.db.deleteFrom('compute_backups').where('instance_uuid', '=', instanceUuid).execute();
  }
}
