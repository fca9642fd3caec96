/**
 * Test helper for end-to-end tests of several product processes on one real PostgreSQL and Redis:
 * a fresh schema every process reaches through DATABASE_URL's search_path, a bus prefix of its own,
 * data directories, a
 * signed-up user, and one close() that kills the processes, drops the schema and removes the
 * directories. Needs DATABASE_URL and REDIS_URL.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { callApi, killProductProcesses } from './product-process.ts';

export interface ProcessStage {
  readonly schema: string;
  /**
   * DATABASE_URL (on the schema), REDIS_URL and BUS_PREFIX (the schema's name: no other test's
   * events, counters or locks), for every process of the test.
   */
  readonly env: { readonly DATABASE_URL: string; readonly REDIS_URL: string; readonly BUS_PREFIX: string };
  /** A fresh directory (DATA_DIR of one process), removed by close(). */
  dataDir(): string;
  /** Registers and signs in a user at the API of `apiUrl`; answers an access token. */
  signUp(apiUrl: string): Promise<string>;
  close(): Promise<void>;
}

export async function openProcessStage(name: string): Promise<ProcessStage> {
  const databaseUrl = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  if (!databaseUrl || !redisUrl) throw new Error('a process stage needs DATABASE_URL and REDIS_URL');
  const schema = `${name}_${randomBytes(5).toString('hex')}`;
  const admin = async (text: string): Promise<void> => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE SCHEMA "${schema}"`);
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const dirs: string[] = [];
  return {
    schema,
    env: { DATABASE_URL: url.toString(), REDIS_URL: redisUrl, BUS_PREFIX: `${schema}:` },
    dataDir() {
      const d = mkdtempSync(path.join(tmpdir(), `${name}-`));
      dirs.push(d);
      return d;
    },
    async signUp(apiUrl) {
      const who = { email: `${schema}@example.com`, password: 'correct horse battery' };
      await callApi(apiUrl, 'POST', '/api/v1/auth/register', who);
      const login = await callApi<{ access_token: string }>(apiUrl, 'POST', '/api/v1/auth/login', who);
      return login.access_token;
    },
    async close() {
      await killProductProcesses();
      await admin(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    },
  };
}
