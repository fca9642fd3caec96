/**
 * Refunds of paid invoices through the Stripe adapter and a local Stripe-shaped server (embedded
 * database, or PostgreSQL and Redis): a card payment goes back to the card at Stripe, in parts,
 * never beyond what was paid; any part may go to credit instead; a credit payment goes back to
 * credit; a full refund makes the invoice `refunded`; each refund is one ledger row and one
 * `invoice.refunded` in the outbox with the invoice's organization.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../kernel/errors/app-error.ts';
import { tablesOf } from '../../kernel/runtime/runtime.ts';
import { createOrg } from '../../testing/org-fixture.ts';
import { startStripeServer, type StripeServer } from '../../testing/stripe-server.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import type { BillingModule } from './billing-module.ts';
import type { BillingTables } from './billing-tables.ts';

const DNS_PRO = { product_id: 2, pricing_id: 2 };
const SMTP_BUSINESS = { product_id: 4, pricing_id: 5 };
const B = '/api/v1/billing';

describe('refunds', () => {
  let stripe: StripeServer;
  let t: TestApp;
  let billing: BillingModule;
  let token: string;
  beforeAll(async () => {
    stripe = await startStripeServer();
    t = await startTestApp({
      env: { ROLE: 'api', STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_API_BASE_URL: stripe.url },
    });
    billing = t.node.modules.find((m) => m.name === 'billing') as BillingModule;
    token = (await t.signUp()).token;
  });
  afterAll(async () => {
    await t?.close();
    await stripe?.close();
  });

  const orderAndPay = async (body: unknown, method: 'card' | 'credit') => {
    const ordered = await t.request('POST', '/api/v1/services/order', { token, body });
    expect(ordered.status, ordered.text).toBe(201);
    const paid = await t.request('POST', `${B}/invoices/${ordered.body.invoice_id}/pay`, {
      token,
      body: method === 'card' ? { method, payment_method: 'pm_card_visa' } : { method },
    });
    expect(paid.status, paid.text).toBe(200);
    return ordered.body.invoice_id as number;
  };
  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: unknown) => (e instanceof AppError ? [e.status, e.code] : e),
    );
  const ledger = async (invoiceId: number) =>
    (
      await tablesOf<BillingTables>(t.node.runtime)
        .selectFrom('billing_transactions')
        .select(['type', 'amount_minor', 'credit_delta_minor', 'balance_after_minor', 'gateway'])
        .where('invoice_id', '=', invoiceId)
        .orderBy('id')
        .execute()
    ).map((r) => [r.type, Number(r.amount_minor), Number(r.credit_delta_minor), r.gateway]);

  it('gives a card payment back at Stripe in parts, the rest to credit; never more than paid', async () => {
    const id = await orderAndPay(SMTP_BUSINESS, 'card');
    const [intent] = [...stripe.paymentIntents.values()].filter((pi) => pi.amount === 1500);
    const part = await billing.refund(id, 550, 'original');
    expect(part).toMatchObject({ status: 'paid', amount_paid: 15, amount_refunded: 5.5, amount_due: 0 });
    const atStripe = [...stripe.refunds.values()];
    expect(atStripe).toEqual([expect.objectContaining({ payment_intent: intent!.id, amount: 550 })]);
    const refundCall = stripe.requests.find((r) => r.path === '/v1/refunds')!;
    expect(refundCall.headers['idempotency-key']).toBe(`billing.invoice-refund:${id}:0`);

    expect(await refusal(billing.refund(id, 951, 'credit'))).toEqual([422, 'validation_failed']);
    const rest = await billing.refund(id, null, 'credit');
    expect(rest).toMatchObject({ status: 'refunded', amount_refunded: 15 });
    expect(await refusal(billing.refund(id, null, 'original'))).toEqual([
      409,
      'billing.invoice_not_refundable',
    ]);
    expect(stripe.refunds.size).toBe(1);
    expect(await ledger(id)).toEqual([
      ['payment', 1500, 0, 'stripe'],
      ['refund', 550, 0, 'stripe'],
      ['refund', 950, 950, 'credit'],
    ]);
    expect((await t.request('GET', `${B}/credit`, { token })).body.balance).toBe(9.5);
    const view = await t.request('GET', `${B}/invoices/${id}`, { token });
    expect(view.body).toMatchObject({ status: 'refunded', amount_refunded: 15 });
    const listed = await t.request('GET', `${B}/transactions?type_filter=refund`, { token });
    expect(listed.body.map((r: { amount: number }) => r.amount)).toEqual([9.5, 5.5]);
  });

  it('gives a credit payment back to credit; refuses unpaid or unknown invoices', async () => {
    const id = await orderAndPay(DNS_PRO, 'credit'); // from the 9.50 given back above
    expect((await t.request('GET', `${B}/credit`, { token })).body.balance).toBe(5.5);
    expect(await billing.refund(id, null, 'original')).toMatchObject({
      status: 'refunded',
      amount_refunded: 4,
    });
    expect(await ledger(id)).toEqual([
      ['credit_deduct', 400, -400, 'credit'],
      ['refund', 400, 400, 'credit'],
    ]);
    expect((await t.request('GET', `${B}/credit`, { token })).body.balance).toBe(9.5);
    const unpaid = (await t.request('POST', '/api/v1/services/order', { token, body: DNS_PRO })).body
      .invoice_id as number;
    expect(await refusal(billing.refund(unpaid, null, 'credit'))).toEqual([
      409,
      'billing.invoice_not_refundable',
    ]);
    expect(await refusal(billing.refund(999_999, null, 'credit'))).toEqual([
      404,
      'billing.invoice_not_found',
    ]);
  });

  it("records invoice.refunded with the invoice's organization, in the same transaction", async () => {
    const slug = `refund-${Date.now().toString(36)}`;
    const org = await createOrg(t, token, slug);
    const id = await orderAndPay({ ...DNS_PRO, org_slug: slug }, 'card');
    await billing.refund(id, 100, 'original');
    const events = await tablesOf<{ events: { name: string; org_id: number | null; payload: unknown } }>(
      t.node.runtime,
    )
      .selectFrom('events')
      .select(['org_id', 'payload'])
      .where('name', '=', 'invoice.refunded')
      .execute();
    const mine = events.filter((e) => JSON.stringify(e.payload).includes(`"invoice_id":${id}`));
    expect(mine).toHaveLength(1);
    expect(Number(mine[0]!.org_id)).toBe(org.id);
    expect(JSON.stringify(mine[0]!.payload)).toContain('"to":"card"');
  });
});
