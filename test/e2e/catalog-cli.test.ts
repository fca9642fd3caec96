/**
 * `npm run catalog -- import <file>` as an operator runs it (the CLI through tsx, on a database
 * the product never started on): a file with problems answers one line per problem, exit 1, and
 * changes nothing; a good one is imported and summed up.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'catalog-cli-'));

function catalogCli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/apps/catalog-cli.ts', ...args],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH, HOME: process.env.HOME ?? ROOT, DATA_DIR: path.join(dir, 'data') },
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const DATABASE_URL = process.env.DATABASE_URL;
const schema = `catalog_cli_${process.pid}_${Date.now().toString(36)}`;

// On PostgreSQL (a schema of its own): the embedded database's first start alone would take most
// of this test's time, and the CLI's code is the same on both.
describe.skipIf(DATABASE_URL === undefined)('npm run catalog -- import', () => {
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });

  it('refuses a file with problems line by line, then imports a good one', async () => {
    const capacity = JSON.parse(readFileSync(path.join(ROOT, 'catalog/capacity.json'), 'utf8'));
    capacity.capacity[0].free_memory_mb = -1;
    capacity.capacity[1].location = 'XXX';
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify(capacity));
    const refused = await catalogCli('import', bad);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split('\n')).toEqual([`${bad}: capacity[0].free_memory_mb: must be >= 0`]);
    capacity.capacity[0].free_memory_mb = 1;
    writeFileSync(bad, JSON.stringify(capacity));
    const unknown = await catalogCli('import', bad);
    expect(unknown.stderr.trim()).toBe(
      `${bad}: capacity[1].location: XXX is no location of geo/locations.json`,
    );

    capacity.capacity.splice(1, 1);
    const good = path.join(dir, 'good.json');
    writeFileSync(good, JSON.stringify(capacity));
    const done = await catalogCli('import', good);
    expect(done.stderr).toBe('');
    expect(done.code).toBe(0);
    expect(done.stdout.trim()).toBe(
      `${good}: imported capacity: capacity ${capacity.capacity.length}; removed capacity 19`,
    );
  }, 120_000);
});
