import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.ts';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../../migrations/', import.meta.url));

/** Serialises migration runs of several processes against one PostgreSQL. */
const MIGRATION_LOCK_ID = 715_001;

/**
 * Applies every `migrations/*.sql` not applied yet, in file-name order (names start with a
 * timestamp), each in its own transaction, recording it in `schema_migrations`.
 * Returns the names applied by this call.
 */
export async function migrate<T>(database: Database<T>, dir: string = MIGRATIONS_DIR): Promise<string[]> {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  return database.withSession(async (run) => {
    await run(`SELECT pg_advisory_lock(${MIGRATION_LOCK_ID})`);
    try {
      await run(
        `CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
      const seen = new Set((await run(`SELECT name FROM schema_migrations`)).map((r) => String(r.name)));
      const applied: string[] = [];
      for (const file of files) {
        const name = file.replace(/\.sql$/, '');
        if (seen.has(name)) continue;
        const script = readFileSync(path.join(dir, file), 'utf8');
        try {
          await run(
            `BEGIN;\n${script}\n;INSERT INTO schema_migrations (name) VALUES ('${name.replace(/'/g, "''")}');\nCOMMIT;`,
          );
        } catch (error) {
          await run('ROLLBACK').catch(() => undefined);
          throw new Error(`migration ${name} failed: ${(error as Error).message}`, { cause: error });
        }
        applied.push(name);
      }
      return applied;
    } finally {
      await run(`SELECT pg_advisory_unlock(${MIGRATION_LOCK_ID})`);
    }
  });
}
