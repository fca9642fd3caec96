import type { Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { GameServersTables, JobRow, SoftwareRow } from '../game-servers-tables.ts';

type Db = Kysely<GameServersTables> | Transaction<GameServersTables>;
export type SoftwareRecord = Selectable<SoftwareRow>;
export type Job = Selectable<JobRow>;
export type NewRecord = Omit<SoftwareRow, 'created_at' | 'updated_at'>;

/** bigint columns arrive as strings from PostgreSQL: numbers here. */
function recordOf(r: Selectable<SoftwareRow>): SoftwareRecord {
  return {
    ...r,
    file_size: r.file_size === null ? null : Number(r.file_size),
    file_mtime_ms: r.file_mtime_ms === null ? null : Number(r.file_mtime_ms),
    created_at: new Date(r.created_at),
    updated_at: new Date(r.updated_at),
  };
}

function jobOf(r: Selectable<JobRow>): Job {
  return {
    ...r,
    created_at: new Date(r.created_at),
    finished_at: r.finished_at === null ? null : new Date(r.finished_at),
  };
}

/** Software records of servers, and the jobs that change them. */
export class SoftwareRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<GameServersTables>): SoftwareRepository {
    return new SoftwareRepository(trx);
  }

  async records(serverUuid: string): Promise<SoftwareRecord[]> {
    const rows = await this.db
      .selectFrom('game_servers_software')
      .selectAll()
      .where('server_uuid', '=', serverUuid)
      .orderBy('install_path')
      .execute();
    return rows.map(recordOf);
  }

  async record(serverUuid: string, recordUuid: string): Promise<SoftwareRecord | null> {
    const r = await this.db
      .selectFrom('game_servers_software')
      .selectAll()
      .where('server_uuid', '=', serverUuid)
      .where('record_uuid', '=', recordUuid)
      .executeTakeFirst();
    return r === undefined ? null : recordOf(r);
  }

  async recordAt(serverUuid: string, installPath: string): Promise<SoftwareRecord | null> {
    const r = await this.db
      .selectFrom('game_servers_software')
      .selectAll()
      .where('server_uuid', '=', serverUuid)
      .where('install_path', '=', installPath)
      .executeTakeFirst();
    return r === undefined ? null : recordOf(r);
  }

  /** Adds a record; a record at the same path (a concurrent scan made it) is left as it is. */
  async insert(row: NewRecord): Promise<void> {
    await this.db
      .insertInto('game_servers_software')
      .values(row)
      .onConflict((oc) => oc.columns(['server_uuid', 'install_path']).doNothing())
      .execute();
  }

  async update(recordUuid: string, patch: Updateable<SoftwareRow>, at: Date): Promise<void> {
    await this.db
      .updateTable('game_servers_software')
      .set({ ...patch, updated_at: at })
      .where('record_uuid', '=', recordUuid)
      .execute();
  }

  async delete(recordUuid: string): Promise<void> {
    await this.db.deleteFrom('game_servers_software').where('record_uuid', '=', recordUuid).execute();
  }

  async insertJob(row: Omit<JobRow, 'created_at'> & { created_at: Date }): Promise<void> {
    await this.db.insertInto('game_servers_jobs').values(row).execute();
  }

  async job(serverUuid: string, jobId: string): Promise<Job | null> {
    const r = await this.db
      .selectFrom('game_servers_jobs')
      .selectAll()
      .where('server_uuid', '=', serverUuid)
      .where('job_id', '=', jobId)
      .executeTakeFirst();
    return r === undefined ? null : jobOf(r);
  }

  async jobById(jobId: string): Promise<Job | null> {
    const r = await this.db
      .selectFrom('game_servers_jobs')
      .selectAll()
      .where('job_id', '=', jobId)
      .executeTakeFirst();
    return r === undefined ? null : jobOf(r);
  }

  /** Whether a job on the record made since `since` is queued or running (older ones were cut off). */
  async busy(recordUuid: string, since: Date): Promise<boolean> {
    const r = await this.db
      .selectFrom('game_servers_jobs')
      .select('job_id')
      .where('record_uuid', '=', recordUuid)
      .where('status', 'in', ['queued', 'running'])
      .where('created_at', '>', since)
      .executeTakeFirst();
    return r !== undefined;
  }

  async setJob(jobId: string, patch: Updateable<JobRow>): Promise<void> {
    await this.db.updateTable('game_servers_jobs').set(patch).where('job_id', '=', jobId).execute();
  }
}
