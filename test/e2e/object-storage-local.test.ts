/**
 * Object storage as `npm start` sets it up: with `radosgw` installed and no gateway configured the
 * product runs a one-node gateway under DATA_DIR/objectstore, so the trial plan is orderable, and
 * stopping the product stops its daemons; with OBJECT_STORAGE_LOCAL=off there is no gateway and the
 * plan is not orderable (`not_configured`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { callApi, killProductProcesses, startProcess } from '../../src/testing/product-process.ts';

const TRIAL_PRODUCT = 41;
const TRIAL_PRICING = 25;
const dirs: string[] = [];

afterAll(async () => {
  await killProductProcesses();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}, 60_000);

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'objectstore-start-'));
  dirs.push(dir);
  return dir;
}

interface Product {
  is_orderable_now: boolean | null;
  availability_reason: string | null;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The command lines of processes naming `dir` (pgrep -f), none when pgrep finds none. */
function processesNaming(dir: string): string[] {
  try {
    return execFileSync('pgrep', ['-af', dir], { encoding: 'utf8' }).trim().split('\n');
  } catch {
    return [];
  }
}

describe('object storage at npm start', () => {
  it('with OBJECT_STORAGE_LOCAL=off: the trial plan is not orderable and an order answers 409 not_configured', async () => {
    const proc = startProcess({ DATA_DIR: tempDir(), OBJECT_STORAGE_LOCAL: 'off' });
    const url = String((await proc.waitFor((l) => l.msg === 'API listening', 150_000)).url);
    const product = await callApi<Product>(url, 'GET', `/api/v1/products/${TRIAL_PRODUCT}`);
    expect(product).toMatchObject({ is_orderable_now: false, availability_reason: 'not_configured' });

    const who = { email: 'storage-off@example.com', password: 'correct horse battery' };
    await callApi(url, 'POST', '/api/v1/auth/register', who);
    const { access_token } = await callApi<{ access_token: string }>(url, 'POST', '/api/v1/auth/login', who);
    const order = await fetch(`${url}/api/v1/services/order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${access_token}` },
      body: JSON.stringify({ product_id: TRIAL_PRODUCT, pricing_id: TRIAL_PRICING }),
    });
    expect(order.status).toBe(409);
    expect(await order.text()).toContain('not_configured');
    proc.child.kill('SIGINT');
    expect(await proc.exited).toBe(0);
  }, 180_000);

  it.skipIf(process.env.DATABASE_URL === undefined)(
    'with radosgw installed: a local gateway under DATA_DIR/objectstore makes the plan orderable, and stops with the product',
    async () => {
      const dataDir = tempDir();
      // The default (product-process.ts turns it off for other tests).
      const proc = startProcess({ DATA_DIR: dataDir, OBJECT_STORAGE_LOCAL: 'auto' }, 'npm start');
      const started = await proc.waitFor((l) => String(l.msg).startsWith('object storage'), 300_000);
      expect(started).toMatchObject({
        msg: 'object storage: local gateway started (one node, DATA_DIR/objectstore)',
        dir: path.join(dataDir, 'objectstore'),
        created: true,
      });
      console.info(`local gateway started in ${String(started.startMs)} ms`);
      const url = String((await proc.waitFor((l) => l.msg === 'API listening', 60_000)).url);
      const product = await callApi<Product>(url, 'GET', `/api/v1/products/${TRIAL_PRODUCT}`);
      expect(product.is_orderable_now).toBe(true);

      const runDir = path.join(dataDir, 'objectstore', 'run');
      const pids = Object.values(
        JSON.parse(readFileSync(path.join(runDir, 'pids.json'), 'utf8')) as Record<string, number>,
      );
      expect(pids.filter(alive)).toHaveLength(3);
      proc.child.kill('SIGINT');
      expect(await proc.exited).toBe(0);
      expect(pids.filter(alive)).toEqual([]);
      expect(processesNaming(path.join(dataDir, 'objectstore'))).toEqual([]);
    },
    420_000,
  );
});
