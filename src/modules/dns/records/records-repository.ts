import { sql, type Kysely, type Transaction } from 'kysely';
import type { DnsTables, RecordRow } from '../dns-tables.ts';

export interface NewRecord {
  name: string;
  type: string;
  type_code: number;
  content: string;
  rdata: Uint8Array;
  ttl: number;
}

export interface RuleRow {
  id: number;
  name: string;
  type_code: number;
}

/** A record as a zone import compares it: identity, TTL, and whether another module owns it. */
export interface ImportRow extends RuleRow {
  rdata: Uint8Array;
  ttl: number;
  managed_by: string | null;
}

type Db = Kysely<DnsTables> | Transaction<DnsTables>;

/**
 * Rows per INSERT in insertMany. Each batch is one statement with six array parameters (unnest),
 * so its size is bounded by memory, not by the 65535-parameter limit of multi-row VALUES.
 */
const INSERT_BATCH = 20_000;

/** The records table: reads for the API and the zone rules, writes inside zone changes. */
export class RecordsRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<DnsTables>): RecordsRepository {
    return new RecordsRepository(trx);
  }

  async list(
    zoneId: number,
    filter: { typeCode?: number; name?: string },
    limit: number,
    offset: number,
  ): Promise<RecordRow[]> {
    let q = this.db.selectFrom('dns_records').selectAll().where('zone_id', '=', zoneId);
    if (filter.typeCode !== undefined) q = q.where('type_code', '=', filter.typeCode);
    if (filter.name !== undefined) q = q.where('name', '=', filter.name);
    return q.orderBy('name').orderBy('type').orderBy('id').limit(limit).offset(offset).execute();
  }

  async listAll(zoneId: number): Promise<RecordRow[]> {
    return this.db
      .selectFrom('dns_records')
      .selectAll()
      .where('zone_id', '=', zoneId)
      .orderBy('name')
      .orderBy('type')
      .orderBy('id')
      .execute();
  }

  async find(zoneId: number, recordId: number): Promise<RecordRow | null> {
    const row = await this.db
      .selectFrom('dns_records')
      .selectAll()
      .where('zone_id', '=', zoneId)
      .where('id', '=', recordId)
      .executeTakeFirst();
    return row ?? null;
  }

  /** Whether the zone holds a record of one of `typeCodes` at `name`. */
  async existsAt(zoneId: number, name: string, typeCodes: readonly number[]): Promise<boolean> {
    const row = await this.db
      .selectFrom('dns_records')
      .select('id')
      .where('zone_id', '=', zoneId)
      .where('name', '=', name)
      .where('type_code', 'in', [...typeCodes])
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * The records the zone rules need to judge a change at `name`: at the name and its ancestors
   * (delegations above), and with `descendants` the names below it (what a new cut would hide).
   */
  async forRulesAt(zoneId: number, name: string, apex: string, descendants: boolean): Promise<RuleRow[]> {
    const labels = name.split('.');
    const names = labels.map((_, i) => labels.slice(i).join('.')).filter((n) => n.length >= apex.length);
    return this.db
      .selectFrom('dns_records')
      .select(['id', 'name', 'type_code'])
      .where('zone_id', '=', zoneId)
      .where((eb) =>
        eb.or([
          eb('name', 'in', names),
          ...(descendants ? [eb(sql`right(name, ${name.length + 1})`, '=', `.${name}`)] : []),
        ]),
      )
      .execute();
  }

  /**
   * Every record of the zone, with its RDATA for identity checks: a zone import compares a whole
   * file against these, and comparing octets in memory is cheaper than hashing every new record.
   */
  async forRulesAll(zoneId: number): Promise<ImportRow[]> {
    return this.db
      .selectFrom('dns_records')
      .select(['id', 'name', 'type_code', 'rdata', 'ttl', 'managed_by'])
      .where('zone_id', '=', zoneId)
      .execute() as Promise<ImportRow[]>;
  }

  /** Deletes records by id (a zone import in `replace` mode), in batches. */
  async deleteMany(zoneId: number, ids: readonly number[]): Promise<void> {
    for (let i = 0; i < ids.length; i += INSERT_BATCH) {
      await this.db
        .deleteFrom('dns_records')
        .where('zone_id', '=', zoneId)
        .where('id', 'in', ids.slice(i, i + INSERT_BATCH))
        .execute();
    }
  }

  async findIdentical(zoneId: number, r: NewRecord, exceptId: number | null): Promise<number | null> {
    let q = this.db
      .selectFrom('dns_records')
      .select('id')
      .where('zone_id', '=', zoneId)
      .where('name', '=', r.name)
      .where('type_code', '=', r.type_code)
      .where(sql<boolean>`md5(rdata) = md5(${Buffer.from(r.rdata)}::bytea)`);
    if (exceptId !== null) q = q.where('id', '<>', exceptId);
    return (await q.executeTakeFirst())?.id ?? null;
  }

  async insert(zoneId: number, r: NewRecord, managedBy: string | null = null): Promise<RecordRow> {
    return this.db
      .insertInto('dns_records')
      .values({ ...r, rdata: Buffer.from(r.rdata), zone_id: zoneId, managed_by: managedBy } as never)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /**
   * Bulk insert (zone imports): one `INSERT ... SELECT FROM unnest(...)` per batch, with a column
   * array per parameter. Measured against multi-row VALUES, which needs seven parameters per row
   * and so thousands of small statements' worth of parameter handling, this is several times
   * cheaper on both backends. RDATA travels as hex text (decoded by the server): array-of-bytea
   * parameters are not serialized alike by pg and PGlite, text arrays are.
   */
  async insertMany(zoneId: number, records: readonly NewRecord[]): Promise<void> {
    for (let i = 0; i < records.length; i += INSERT_BATCH) {
      const part = records.slice(i, i + INSERT_BATCH);
      const n = part.length;
      const names = new Array<string>(n);
      const types = new Array<string>(n);
      const codes = new Array<number>(n);
      const contents = new Array<string>(n);
      const rdata = new Array<string>(n);
      const ttls = new Array<number>(n);
      for (let j = 0; j < n; j++) {
        const r = part[j]!;
        names[j] = r.name;
        types[j] = r.type;
        codes[j] = r.type_code;
        contents[j] = r.content;
        rdata[j] = Buffer.from(r.rdata.buffer, r.rdata.byteOffset, r.rdata.byteLength).toString('hex');
        ttls[j] = r.ttl;
      }
      await sql`
        INSERT INTO dns_records (zone_id, name, type, type_code, content, rdata, ttl)
        SELECT ${zoneId}::bigint, u.name, u.type, u.type_code, u.content, decode(u.rdata, 'hex'), u.ttl
        FROM unnest(${names}::text[], ${types}::text[], ${codes}::int[], ${contents}::text[],
                    ${rdata}::text[], ${ttls}::int[]) AS u(name, type, type_code, content, rdata, ttl)
      `.execute(this.db);
    }
  }

  async update(recordId: number, r: NewRecord): Promise<RecordRow> {
    return this.db
      .updateTable('dns_records')
      .set({ ...r, rdata: Buffer.from(r.rdata), updated_at: sql<Date>`now()` } as never)
      .where('id', '=', recordId)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** The records of one type at one name, oldest first. */
  async listAt(zoneId: number, name: string, typeCode: number): Promise<RecordRow[]> {
    return this.db
      .selectFrom('dns_records')
      .selectAll()
      .where('zone_id', '=', zoneId)
      .where('name', '=', name)
      .where('type_code', '=', typeCode)
      .orderBy('id')
      .execute();
  }

  /** Records a module owns, in one zone or in all. */
  async listManaged(module: string, zoneId: number | null): Promise<RecordRow[]> {
    let q = this.db.selectFrom('dns_records').selectAll().where('managed_by', '=', module);
    if (zoneId !== null) q = q.where('zone_id', '=', zoneId);
    return q.orderBy('zone_id').orderBy('name').orderBy('type').orderBy('id').execute();
  }

  async delete(recordId: number): Promise<void> {
    await this.db.deleteFrom('dns_records').where('id', '=', recordId).execute();
  }
}
