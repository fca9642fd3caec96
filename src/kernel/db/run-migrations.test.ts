import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { migrate } from './run-migrations.ts';
import { openDatabase } from './open-database.ts';

const url = process.env.DATABASE_URL ?? null;
const schema = url ? `test_migrate_${randomBytes(4).toString('hex')}` : undefined;

describe(`migrations on ${url ? 'PostgreSQL' : 'embedded PGlite'}`, () => {
  afterAll(async () => {
    if (url && schema) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
  });

  it('applies every migration once, and again applies nothing', async () => {
    const database = await openDatabase({ url, dataDir: null, ...(schema ? { schema } : {}) });
    try {
      const first = await migrate(database);
      expect(first.length).toBeGreaterThan(0);
      expect(first).toEqual([...first].sort());
      expect(await migrate(database)).toEqual([]);
      const rows = await database.withSession((run) =>
        run('SELECT count(*)::int AS n FROM schema_migrations'),
      );
      expect(rows[0]?.n).toBe(first.length);
    } finally {
      await database.close();
    }
  });
});
