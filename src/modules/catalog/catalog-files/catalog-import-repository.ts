import { sql, type Kysely, type Transaction } from 'kysely';
import type { CatalogTables } from '../catalog-tables.ts';

type Db = Kysely<CatalogTables> | Transaction<CatalogTables>;
type Table = keyof CatalogTables;

/** The jsonb columns of each table: written as JSON text cast to jsonb. */
const JSON_COLUMNS: Partial<Record<Table, readonly string[]>> = {
  catalog_products: ['config_schema', 'metadata'],
  catalog_pricing: ['metadata'],
  catalog_config_options: ['options'],
  catalog_os_templates: ['pve_template_vmid'],
  catalog_specializations: ['default_variables', 'metadata', 'versions', 'defaults'],
};

const json = (v: unknown) => (v === null || v === undefined ? null : sql`${JSON.stringify(v)}::jsonb`);

/** `values` with its table's jsonb columns made SQL. */
function stored(table: Table, values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...values };
  for (const column of JSON_COLUMNS[table] ?? []) if (column in out) out[column] = json(out[column]);
  return out;
}

/**
 * The catalogue's tables as an import writes them: whole parts replaced, rows keeping the file's
 * ids. Every method runs in the import's one transaction (withTx).
 */
export class CatalogImportRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<CatalogTables>): CatalogImportRepository {
    return new CatalogImportRepository(trx);
  }

  /** Imports serialise on one advisory lock, so processes starting together seed once. */
  async lockImports(): Promise<void> {
    await sql`SELECT pg_advisory_xact_lock(hashtext('catalog-import'))`.execute(this.db);
  }

  async isEmpty(table: Table): Promise<boolean> {
    const any = await this.db
      .selectFrom(table)
      .select(sql`1`.as('one'))
      .limit(1)
      .executeTakeFirst();
    return any === undefined;
  }

  /** Inserts `values`, or updates every other column of the row with the same `key`. */
  async upsert(table: Table, key: 'id' | 'uuid', values: Readonly<Record<string, unknown>>): Promise<void> {
    const row = stored(table, values);
    const { [key]: _key, ...changes } = row;
    await this.db
      .insertInto(table as 'catalog_products')
      .values(row as never)
      .onConflict((oc) => oc.column(key as 'id').doUpdateSet(changes as never))
      .execute();
  }

  /** Inserts `rows`, `batch` rows per statement (all in one by default). */
  async insertAll(
    table: Table,
    rows: readonly Readonly<Record<string, unknown>>[],
    batch = Infinity,
  ): Promise<void> {
    for (let i = 0; i < rows.length; i += batch)
      await this.db
        .insertInto(table as 'catalog_products')
        .values(rows.slice(i, i + batch).map((r) => stored(table, r)) as never)
        .execute();
  }

  /**
   * Slugs may move between ids within one file: once the rows the file lacks are gone, every row
   * left gets a placeholder slug (`~<key>`) the upserts then overwrite, so no unique check trips.
   */
  async parkSlugs(table: Table, key: 'id' | 'uuid'): Promise<void> {
    await this.db
      .updateTable(table as 'catalog_products')
      .set({ slug: sql`'~' || ${sql.ref(key)}::text` })
      .execute();
  }

  /** Deletes the rows of `table` whose `key` is not in `keep` (every row when it is empty); answers how many went. */
  async removeOthers(table: Table, key: 'id' | 'uuid', keep: readonly (number | string)[]): Promise<number> {
    let query = this.db.deleteFrom(table as 'catalog_products');
    if (keep.length > 0) query = query.where(key as 'id', 'not in', keep as number[]);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Deletes every row of `table`; answers how many went. */
  async removeAll(table: Table): Promise<number> {
    const result = await this.db.deleteFrom(table).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async hardwareTierIds(): Promise<Set<number>> {
    const rows = await this.db.selectFrom('catalog_hardware_tiers').select('id').execute();
    return new Set(rows.map((t) => Number(t.id)));
  }
}
