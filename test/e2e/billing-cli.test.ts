/**
 * `npm run billing -- run --as-of <date>` as an operator runs it (the CLI through tsx, on the
 * product's database): the renewal invoice of a paid monthly plan is made 7 days before its due
 * date, and the same day run again does nothing.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_SECTIONS } from '../../src/apps/platform-modules.ts';
import { loadConfig } from '../../src/kernel/config/load-config.ts';
import { createLogger } from '../../src/kernel/log/logger.ts';
import { closeRuntime, openRuntime } from '../../src/kernel/runtime/open-runtime.ts';
import { tablesOf } from '../../src/kernel/runtime/runtime.ts';
import { startTestApp, type TestApp } from '../../src/testing/test-app.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DATABASE_URL = process.env.DATABASE_URL;
const dir = mkdtempSync(path.join(tmpdir(), 'billing-cli-'));
const DATA_DIR = path.join(dir, 'data');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of several modules' tables
type AnyDb = Kysely<any>;

describe('npm run billing -- run --as-of', () => {
  let t: TestApp;
  let stopped = false;
  let dueDate = '';

  const cli = (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', 'src/apps/billing-cli.ts', ...args],
        {
          cwd: ROOT,
          env: {
            PATH: process.env.PATH ?? '',
            HOME: process.env.HOME ?? ROOT,
            DATA_DIR,
            ...(DATABASE_URL !== undefined ? { DATABASE_URL, DATABASE_SCHEMA: t.databaseSchema! } : {}),
          },
        },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
  const invoiceCount = async (): Promise<number> => {
    const count = (db: AnyDb) =>
      db
        .selectFrom('billing_invoices')
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
    if (!stopped) return Number((await count(tablesOf(t.node.runtime))).n);
    const runtime = await openRuntime(loadConfig({ DATA_DIR }, CONFIG_SECTIONS), createLogger('silent'));
    try {
      return Number((await count(tablesOf(runtime))).n);
    } finally {
      await closeRuntime(runtime);
    }
  };

  beforeAll(async () => {
    t = await startTestApp({ persistent: true, env: { DATA_DIR } });
    const { token } = await t.signUp();
    const ordered = await t.request('POST', '/api/v1/services/order', {
      token,
      body: { product_id: 2, pricing_id: 2 },
    });
    expect(ordered.status, ordered.text).toBe(201);
    const paid = await t.request('POST', `/api/v1/billing/invoices/${ordered.body.invoice_id}/pay`, {
      token,
      body: { method: 'card' },
    });
    expect(paid.status, paid.text).toBe(200);
    const svc = await t.request('GET', `/api/v1/services/${ordered.body.id}`, { token });
    dueDate = svc.body.next_due_date as string;
    if (DATABASE_URL === undefined) {
      // The embedded database is one process's: the CLI opens it once the product has stopped.
      await t.node.stop();
      stopped = true;
    }
  }, 120_000);
  afterAll(async () => {
    if (!stopped) await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('invoices the renewal 7 days early, once per day', async () => {
    const day = (offset: number) =>
      new Date(Date.parse(dueDate.slice(0, 10)) + offset * 24 * 3600_000).toISOString().slice(0, 10);
    const usage = await cli('run');
    expect([usage.code, usage.stderr]).toEqual([2, expect.stringContaining('usage: npm run billing')]);
    const early = await cli('run', '--as-of', day(-8));
    expect(early.code, early.stderr).toBe(0);
    expect(JSON.parse(early.stdout)).toMatchObject({ day: day(-8), ran: true, invoiced: 0 });
    const first = await cli('run', '--as-of', day(-7));
    expect(JSON.parse(first.stdout)).toMatchObject({ day: day(-7), ran: true, invoiced: 1 });
    const again = await cli('run', '--as-of', day(-7));
    expect(JSON.parse(again.stdout)).toMatchObject({ ran: false, invoiced: 0 });
    expect(await invoiceCount()).toBe(2);
  }, 120_000);
});
