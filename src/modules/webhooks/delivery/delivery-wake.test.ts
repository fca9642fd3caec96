import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moduleContext } from '../../../kernel/module/module-context.ts';
import type { OutboxTables } from '../../../kernel/events/outbox.ts';
import { eventually } from '../../../testing/eventually.ts';
import { startHttpsReceiver, type HttpsReceiver } from '../../../testing/https-receiver.ts';
import { ORGS, createOrg } from '../../../testing/org-fixture.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';
import type { WebhooksModule } from '../webhooks-module.ts';

/**
 * The dispatcher backs off while idle; an event recorded in a unit of work wakes it once the
 * transaction commits. Here it polls once a minute, so only the wake can deliver within the test.
 */
describe('the delivery engine wakes on a recorded outbox event', () => {
  let receiver: HttpsReceiver;
  let t: TestApp;
  let orgId: number;
  let engine: WebhooksModule['engine'];

  beforeAll(async () => {
    receiver = await startHttpsReceiver();
    t = await startTestApp({
      env: { OUTBOUND_ALLOW_PRIVATE_TARGETS: 'true', OUTBOUND_CA_FILE: receiver.caFile },
    });
    engine = (t.node.modules.find((m) => m.name === 'webhooks') as WebhooksModule).engine;
    const { token } = await t.signUp();
    orgId = (await createOrg(t, token, 'woken')).id;
    const hook = await t.request('POST', `${ORGS}/woken/webhooks`, {
      token,
      body: { url: `${receiver.url}/in`, events: ['*'] },
    });
    expect(hook.status).toBe(201);
    await engine.stop();
    engine.start(60_000, 60_000);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  const record = (name: string, fail: boolean) =>
    moduleContext<OutboxTables>(t.node.runtime, 'wake-test').transaction(async (uow) => {
      await uow.record({ orgId, name, data: { n: 1 } });
      if (fail) throw new Error('rolled back');
    });
  const names = () => receiver.requests.map((r) => String(r.headers['x-webhook-event']));

  it('delivers a committed event at once, and nothing of one rolled back', async () => {
    await expect(record('commerce.test.rolled_back', true)).rejects.toThrow('rolled back');
    await record('commerce.test.woken', false);
    await eventually(async () => expect(names()).toContain('commerce.test.woken'), 10_000);
    expect(names()).not.toContain('commerce.test.rolled_back');
  });
});
