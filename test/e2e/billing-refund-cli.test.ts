/**
 * `npm run billing -- refund --invoice <id> [--amount <decimal>] [--to credit|original]` as an
 * operator runs it (the CLI through tsx, on the product's database): a part to credit, the rest
 * back the way it was paid (the manual provider's card), then nothing left to refund; a bad
 * command line answers the usage (exit 2), a refused refund its reason (exit 1).
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
const dir = mkdtempSync(path.join(tmpdir(), 'billing-refund-cli-'));
const DATA_DIR = path.join(dir, 'data');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of several modules' tables
type AnyDb = Kysely<any>;

describe('npm run billing -- refund', () => {
  let t: TestApp;
  let stopped = false;
  let invoiceId = 0;

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
  const withDb = async <T>(read: (db: AnyDb) => Promise<T>): Promise<T> => {
    if (!stopped) return read(tablesOf(t.node.runtime));
    const runtime = await openRuntime(loadConfig({ DATA_DIR }, CONFIG_SECTIONS), createLogger('silent'));
    try {
      return await read(tablesOf(runtime));
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
    invoiceId = ordered.body.invoice_id as number;
    const paid = await t.request('POST', `/api/v1/billing/invoices/${invoiceId}/pay`, {
      token,
      body: { method: 'card' },
    });
    expect(paid.status, paid.text).toBe(200);
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

  it('refunds a part to credit, the rest to the card, then refuses', async () => {
    for (const args of [
      ['refund'],
      ['refund', '--invoice', String(invoiceId), '--to', 'bank'],
      ['refund', '--invoice', String(invoiceId), '--amount', '1.505'],
    ]) {
      const usage = await cli(...args);
      expect([usage.code, usage.stderr], args.join(' ')).toEqual([
        2,
        expect.stringContaining('npm run billing -- refund'),
      ]);
    }
    const part = await cli('refund', '--invoice', String(invoiceId), '--amount', '1.50', '--to', 'credit');
    expect(part.code, part.stderr).toBe(0);
    expect(JSON.parse(part.stdout)).toMatchObject({ id: invoiceId, status: 'paid', amount_refunded: 1.5 });
    const over = await cli('refund', '--invoice', String(invoiceId), '--amount', '3');
    expect([over.code, over.stderr.trim()]).toEqual([
      1,
      'amount: Should be greater than 0 and at most 2.5 (paid minus refunded)',
    ]);
    const rest = await cli('refund', '--invoice', String(invoiceId));
    expect(rest.code, rest.stderr).toBe(0);
    expect(JSON.parse(rest.stdout)).toMatchObject({ status: 'refunded', amount_paid: 4, amount_refunded: 4 });
    const again = await cli('refund', '--invoice', String(invoiceId));
    expect([again.code, again.stderr.trim()]).toEqual([1, 'Invoice cannot be refunded: it is refunded']);

    const rows = await withDb((db) =>
      db
        .selectFrom('billing_transactions')
        .select(['type', 'amount_minor', 'credit_delta_minor', 'balance_after_minor', 'gateway'])
        .where('invoice_id', '=', invoiceId)
        .orderBy('id')
        .execute(),
    );
    expect(
      rows.map((r) => [
        r.type,
        Number(r.amount_minor),
        Number(r.credit_delta_minor),
        Number(r.balance_after_minor),
        r.gateway,
      ]),
    ).toEqual([
      ['payment', 400, 0, 0, 'manual'],
      ['refund', 150, 150, 150, 'credit'],
      ['refund', 250, 0, 150, 'manual'],
    ]);
  }, 120_000);
});
