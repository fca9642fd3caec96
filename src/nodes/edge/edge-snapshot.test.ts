/**
 * An edge process's cold start with PostgreSQL and Redis down: `npm start`'s entry point with
 * ROLE=edge writes its snapshot file while the database answers; started again with both
 * unreachable (closed ports), it routes players from that file and says it is ready.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../testing/eventually.ts';
import { freePort } from '../../testing/free-port.ts';
import { insertGameRoute } from '../../testing/gameproxy-fixture.ts';
import {
  askStatus,
  startGameUpstream,
  statusText,
  type GameUpstream,
} from '../../testing/minecraft-status.ts';
import { killProductProcesses, startProcess, type Proc } from '../../testing/product-process.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { EDGE_SNAPSHOT_FILE_NAME } from './edge-snapshot-file.ts';

const DATABASE_URL = process.env.DATABASE_URL;

describe.skipIf(DATABASE_URL === undefined)('edge process: cold start from its snapshot file', () => {
  let t: TestApp;
  let up: GameUpstream;
  let dataDir: string;

  const startEdge = (env: Record<string, string>): Proc =>
    startProcess({ ROLE: 'edge', DATA_DIR: dataDir, DATABASE_SCHEMA: t.databaseSchema!, ...env });
  const listening = async (proc: Proc): Promise<{ port: number; from: string }> => {
    const line = await proc.waitFor((l) => l.msg === 'edge listening', 60_000);
    return { port: Number(line.port), from: String(line.from) };
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'edge-snapshot-'));
    up = await startGameUpstream('from the snapshot');
    t = await startTestApp();
    await insertGameRoute(t, {
      user_id: 1,
      subdomain: 'cold',
      upstream_host: '127.0.0.1',
      upstream_port: up.port,
    });
  }, 60_000);
  afterAll(async () => {
    await killProductProcesses();
    await t?.close();
    await up?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('routes from the snapshot file with PostgreSQL and Redis unreachable', async () => {
    const first = startEdge({
      DATABASE_URL: DATABASE_URL!,
      ...(process.env.REDIS_URL !== undefined ? { REDIS_URL: process.env.REDIS_URL } : {}),
    });
    const warm = await listening(first);
    expect(warm.from).toBe('database');
    expect(statusText(await askStatus(warm.port, 'cold.play.localhost'))).toBe('from the snapshot');
    await eventually(async () => existsSync(path.join(dataDir, EDGE_SNAPSHOT_FILE_NAME)), 5_000);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const closedDb = await freePort('127.0.0.1');
    const closedRedis = await freePort('127.0.0.1');
    const cold = startEdge({
      DATABASE_URL: `postgres://postgres@127.0.0.1:${closedDb}/nothing`,
      REDIS_URL: `redis://127.0.0.1:${closedRedis}`,
    });
    const started = await listening(cold);
    expect(started.from).toBe('fallback');
    expect(statusText(await askStatus(started.port, 'cold.play.localhost'))).toBe('from the snapshot');
    expect(statusText(await askStatus(started.port, 'mc.cold.play.localhost'))).toBe('from the snapshot');
    const ops = String((await cold.waitFor((l) => l.msg === 'ops endpoints listening', 1_000)).url);
    const ready = await fetch(`${ops}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: 'ready',
      degraded: expect.arrayContaining(['postgres']),
    });
  }, 90_000);
});
