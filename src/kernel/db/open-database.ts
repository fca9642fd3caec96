import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './database.ts';
import { lockDataDir, shownPath, StartRefused } from './data-dir-lock.ts';

// int8 (COUNT(*), BIGSERIAL) and numeric arrive as strings from pg; every int8 we store fits a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export interface DatabaseOptions {
  /** PostgreSQL URL; null → embedded PGlite. */
  readonly url: string | null;
  /** Directory of the embedded database; null → in memory (tests). */
  readonly dataDir: string | null;
  /** PostgreSQL schema to use (tests isolate themselves in a fresh schema); created when missing. */
  readonly schema?: string;
  /** false: use `schema` without creating it (a DNS node starting while PostgreSQL is down). */
  readonly createSchema?: boolean;
  readonly poolSize?: number;
  /** In memory only: start from this copy of a data directory (PGlite's `dumpDataDir`). */
  readonly template?: Blob;
}

export async function openDatabase<Schema>(options: DatabaseOptions): Promise<Database<Schema>> {
  if (options.url !== null) {
    return openPostgres<Schema>(
      options.url,
      options.schema,
      options.poolSize ?? 10,
      options.createSchema ?? true,
    );
  }
  return openPglite<Schema>(options.dataDir, options.template);
}

async function openPostgres<Schema>(
  url: string,
  schema: string | undefined,
  max: number,
  createSchema: boolean,
): Promise<Database<Schema>> {
  if (schema !== undefined && createSchema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`CREATE SCHEMA IF NOT EXISTS "${schema.replace(/"/g, '')}"`);
    } finally {
      await admin.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max,
    // A server that stops answering must fail queries (callers keep what they hold), not hang them.
    connectionTimeoutMillis: 5000,
    keepAlive: true,
    ...(schema !== undefined ? { options: `-c search_path="${schema.replace(/"/g, '')}"` } : {}),
  });
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    kind: 'postgres',
    async withSession(fn) {
      const client = await pool.connect();
      try {
        return await fn(async (script) => {
          const result = (await client.query(script)) as unknown as pg.QueryResult | pg.QueryResult[];
          const last = Array.isArray(result) ? result[result.length - 1] : result;
          return (last?.rows ?? []) as Record<string, unknown>[];
        });
      } finally {
        client.release();
      }
    },
    async close() {
      await db.destroy();
    },
  };
}

async function openPglite<Schema>(dataDir: string | null, template?: Blob): Promise<Database<Schema>> {
  // Loaded only here: the embedded database (its WASM build) costs ~45 MiB resident per process,
  // which a node on PostgreSQL (every DNS worker) must not pay.
  const [{ PGlite }, { PGliteDialect }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('kysely-pglite-dialect'),
  ]);
  let client: PGlite;
  let unlock = (): void => undefined;
  if (dataDir === null) {
    client = template === undefined ? new PGlite() : new PGlite({ loadDataDir: template });
    await client.waitReady;
  } else {
    unlock = lockDataDir(dataDir);
    const dir = path.join(dataDir, 'pglite');
    mkdirSync(dir, { recursive: true });
    try {
      client = new PGlite(dir);
      await client.waitReady;
    } catch (error) {
      unlock();
      const shown = shownPath(path.join(dataDir, 'pglite'));
      throw new StartRefused(
        `the embedded database in ${shown} cannot be opened (${(error as Error).message.split('\n')[0]}); ` +
          `restore that directory from a backup, or move it away to start with an empty database`,
      );
    }
  }
  const db = new Kysely<Schema>({ dialect: new PGliteDialect(client) });
  return {
    db,
    kind: 'pglite',
    async withSession(fn) {
      // PGlite has a single connection: every call already shares one session.
      return fn(async (script) => {
        const results = await client.exec(script);
        return (results[results.length - 1]?.rows ?? []) as Record<string, unknown>[];
      });
    },
    async dump() {
      return client.dumpDataDir('none');
    },
    async close() {
      await db.destroy();
      if (!client.closed) await client.close();
      unlock();
    },
  };
}
