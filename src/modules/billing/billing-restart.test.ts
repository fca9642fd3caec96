/**
 * A process that stops between a payment's commit and the provisioning of what it paid for: at the
 * next start, billing's catch-up provisions the paid invoice's pending services (and leaves the
 * services of unpaid invoices pending). Embedded database on disk, or PostgreSQL.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../kernel/runtime/runtime.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

type ServicesTable = { services: { id: number; status: string } };

describe('billing at start', () => {
  let t: TestApp | undefined;
  afterAll(async () => t?.close());

  it('provisions the pending services of invoices paid before the process stopped', async () => {
    t = await startTestApp({ env: { ROLE: 'api' }, persistent: true });
    const { token, email } = await t.signUp();
    const order = () =>
      t!.request('POST', '/api/v1/services/order', { token, body: { product_id: 2, pricing_id: 2 } });
    const paidFor = (await order()).body as { id: number; invoice_id: number };
    const unpaid = (await order()).body as { id: number; invoice_id: number };
    const paid = await t.request('POST', `/api/v1/billing/invoices/${paidFor.invoice_id}/pay`, {
      token,
      body: { method: 'card' },
    });
    expect(paid.status, paid.text).toBe(200);
    // The stop came after the payment's commit, before provisioning: the service is still pending.
    await tablesOf<ServicesTable>(t.node.runtime)
      .updateTable('services')
      .set({ status: 'pending' })
      .where('id', '=', paidFor.id)
      .execute();
    t = await t.restart();
    const again = await t.signIn(email);
    const status = async (id: number) =>
      (await t!.request('GET', `/api/v1/services/${id}`, { token: again })).body.status as string;
    expect(await status(paidFor.id)).toBe('active');
    expect(await status(unpaid.id)).toBe('pending');
  });
});
