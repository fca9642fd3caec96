import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../testing/manual-clock.ts';
import { ORGS, addMember, createOrg } from '../../../testing/org-fixture.ts';
import { startHttpsReceiver, type HttpsReceiver } from '../../../testing/https-receiver.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';
import type { WebhooksModule } from '../../webhooks/index.ts';

const DNS_FREE = { product_id: 1, pricing_id: 1 };

describe('a reseller suspends and unsuspends its services', () => {
  const clock = new ManualClock(Date.UTC(2026, 10, 23, 12));
  let receiver: HttpsReceiver;
  let t: TestApp;
  let engine: WebhooksModule['engine'];
  let owner: { token: string };
  let member: { token: string; email: string };
  const post = (path: string, token: string, body?: unknown) =>
    t.request('POST', `${ORGS}${path}`, { token, body: body ?? {} });
  const order = async (token: string, body: Record<string, unknown>) => {
    const res = await t.request('POST', '/api/v1/services/order', { token, body: { ...DNS_FREE, ...body } });
    expect(res.status, res.text).toBe(201);
    return res.body as { id: number; status: string };
  };

  beforeAll(async () => {
    receiver = await startHttpsReceiver();
    t = await startTestApp({
      clock,
      env: { OUTBOUND_ALLOW_PRIVATE_TARGETS: 'true', OUTBOUND_CA_FILE: receiver.caFile },
    });
    engine = (t.node.modules.find((m) => m.name === 'webhooks') as WebhooksModule).engine;
    await engine.stop(); // one delivery round per step, driven by the test
    owner = await t.signUp();
    member = await t.signUp();
    await createOrg(t, owner.token, 'susp');
    await createOrg(t, owner.token, 'susp-other');
    await addMember(t, owner.token, 'susp', member.email, 'member');
    const hook = await post('/susp/webhooks', owner.token, {
      url: `${receiver.url}/in`,
      events: ['service.suspended', 'service.unsuspended'],
    });
    expect(hook.status, hook.text).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('suspend → service.suspended, unsuspend → service.unsuspended on the webhook; 409 out of state', async () => {
    const svc = await order(owner.token, { org_slug: 'susp' });
    expect(svc.status).toBe('active');
    const suspended = await post(`/susp/services/${svc.id}/suspend`, owner.token, { reason: 'Unpaid' });
    expect(suspended.status, suspended.text).toBe(200);
    expect(suspended.body).toMatchObject({ id: svc.id, status: 'suspended', status_reason: 'Unpaid' });
    expect((await post(`/susp/services/${svc.id}/suspend`, owner.token)).status).toBe(409);
    const back = await post(`/susp/services/${svc.id}/unsuspend`, owner.token);
    expect(back.status, back.text).toBe(200);
    expect(back.body).toMatchObject({ status: 'active', status_reason: null });
    expect((await post(`/susp/services/${svc.id}/unsuspend`, owner.token)).status).toBe(409);
    const noReason = await post(`/susp/services/${svc.id}/suspend`, owner.token);
    expect(noReason.body.status_reason).toBe('Suspended by the reseller');

    await engine.runOnce();
    const events = receiver.requests.map((r) => JSON.parse(r.body) as Record<string, unknown>);
    const names = events.map((e) => e.event ?? e.type);
    expect(names).toEqual(['service.suspended', 'service.unsuspended', 'service.suspended']);
    expect(JSON.stringify(events[0])).toContain(`"service_id":${svc.id}`);
  });

  it('a plain member is 403; another organization’s or a personal service is 404', async () => {
    const svc = await order(owner.token, { org_slug: 'susp' });
    expect((await post(`/susp/services/${svc.id}/suspend`, member.token)).status).toBe(403);
    const other = await order(owner.token, { org_slug: 'susp-other' });
    const cross = await post(`/susp/services/${other.id}/suspend`, owner.token);
    expect([cross.status, cross.body.detail]).toEqual([404, 'Service not found']);
    const personal = await order(owner.token, {});
    expect((await post(`/susp/services/${personal.id}/suspend`, owner.token)).status).toBe(404);
    expect((await post(`/susp/services/999999/unsuspend`, owner.token)).status).toBe(404);
  });
});
