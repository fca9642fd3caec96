import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningNode } from '../../src/apps/node.ts';
import { insertOutboxEvent, type OutboxTables } from '../../src/kernel/events/outbox.ts';
import { tablesOf } from '../../src/kernel/runtime/runtime.ts';
import type { WebhooksModule } from '../../src/modules/webhooks/index.ts';
import { startHttpsReceiver, type HttpsReceiver } from '../../src/testing/https-receiver.ts';
import { ORGS, createOrg } from '../../src/testing/org-fixture.ts';
import { startTestApp, type TestApp } from '../../src/testing/test-app.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const shared = process.env.DATABASE_URL !== undefined;

/** Real processes on one PostgreSQL: the dispatcher shares its work and loses nothing to a crash. */
describe.skipIf(!shared)('webhook dispatchers across processes', () => {
  let receiver: HttpsReceiver;
  let t: TestApp;
  let orgId: number;
  // One sealing key for every process: each unseals the webhook secrets the others stored.
  const sealingKey = randomBytes(32).toString('base64');
  const env = () => ({
    OUTBOUND_ALLOW_PRIVATE_TARGETS: 'true',
    OUTBOUND_CA_FILE: receiver.caFile,
    SEALING_KEY: sealingKey,
  });
  beforeAll(async () => {
    receiver = await startHttpsReceiver();
    t = await startTestApp({ env: env() });
    const { token } = await t.signUp();
    orgId = (await createOrg(t, token, 'dispatch')).id;
    await t.request('POST', `${ORGS}/dispatch/webhooks`, {
      token,
      body: { url: `${receiver.url}/in`, events: ['*'] },
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  const insertEvents = async (n: number, name: string) => {
    const db = tablesOf<OutboxTables>(t.node.runtime);
    for (let i = 0; i < n; i++) await insertOutboxEvent(db, { orgId, name, data: { n: i } }, new Date());
  };
  const ids = (name: string) =>
    receiver.requests
      .filter((r) => r.headers['x-webhook-event'] === name)
      .map((r) => String(r.headers['x-webhook-id']));
  const until = async (check: () => boolean, ms: number) => {
    const deadline = Date.now() + ms;
    while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  };

  it('two dispatchers send each attempt exactly once over 200 events', async () => {
    let peer: RunningNode | null = null;
    try {
      peer = await t.startPeer({ ROLE: 'worker', ...env() });
      await insertEvents(200, 'commerce.test.shared');
      await until(() => new Set(ids('commerce.test.shared')).size === 200, 30_000);
      await new Promise((r) => setTimeout(r, 1500));
      const got = ids('commerce.test.shared');
      expect(new Set(got).size).toBe(200);
      expect(got).toHaveLength(200);
    } finally {
      await peer?.stop();
    }
  }, 60_000);

  it('a dispatcher killed with SIGKILL mid-batch loses nothing: every event arrives after a restart', async () => {
    // Only the child processes deliver in this test.
    await (t.node.modules.find((m) => m.name === 'webhooks') as WebhooksModule).engine.stop();
    receiver.respond = () => ({ status: 200, delayMs: 150 });
    const worker = (): ChildProcess =>
      spawn(process.execPath, ['--import', 'tsx', 'src/apps/main.ts'], {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH,
          OBJECT_STORAGE_LOCAL: 'off',
          COMPUTE_LOCAL: 'off',
          ROLE: 'worker',
          API_PORT: '0',
          DATABASE_URL: process.env.DATABASE_URL,
          DATABASE_SCHEMA: t.databaseSchema,
          LOG_LEVEL: 'warn',
          DATA_DIR: `/tmp/worker-${process.pid}`,
          ...env(),
        },
        stdio: process.env.WORKER_STDIO === 'inherit' ? 'inherit' : 'ignore',
      });
    await insertEvents(60, 'commerce.test.crash');
    const first = worker();
    await until(() => ids('commerce.test.crash').length >= 10, 30_000);
    first.kill('SIGKILL');
    await new Promise((r) => first.once('exit', r));
    const before = new Set(ids('commerce.test.crash')).size;
    expect(before).toBeLessThan(60);
    const second = worker();
    try {
      // Attempts the killed process had claimed are taken again when their lease runs out (15 s).
      await until(() => new Set(ids('commerce.test.crash')).size === 60, 60_000);
      expect(new Set(ids('commerce.test.crash')).size).toBe(60);
    } finally {
      second.kill('SIGTERM');
      await new Promise((r) => second.once('exit', r));
    }
  }, 120_000);
});
