/**
 * Account billing over real HTTP (embedded database, or PostgreSQL and Redis): a priced order
 * becomes a pending service and an unpaid invoice; paying it from credit or by card (the manual
 * adapter) provisions the service; a declined card changes nothing; Idempotency-Key retries answer
 * the first reply; the lists' paging, filters and totals; and the ledger never drifts from the
 * invoices and the credit balance (checked in the database).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IdempotencyTables } from '../../kernel/http/idempotency.ts';
import { tablesOf } from '../../kernel/runtime/runtime.ts';
import { ManualClock } from '../../testing/manual-clock.ts';
import { createSeededRandom } from '../../testing/seeded-random.ts';
import { addMember, createOrg } from '../../testing/org-fixture.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import type { BillingTables } from './billing-tables.ts';

const DNS_PRO = { product_id: 2, pricing_id: 2 };
const B = '/api/v1/billing';

describe('billing', () => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  // A clock that stands still: rows made together share created_at, and lists break the tie on id.
  const clock = new ManualClock(Date.now());
  beforeAll(async () => {
    t = await startTestApp({ env: { ROLE: 'api' }, clock });
    alice = (await t.signUp()).token;
    bob = (await t.signUp()).token;
  });
  afterAll(async () => t?.close());

  const order = (token: string, body: unknown = DNS_PRO, key?: string) =>
    t.request('POST', '/api/v1/services/order', {
      token,
      body,
      ...(key ? { headers: { 'idempotency-key': key } } : {}),
    });
  const pay = (token: string, id: number, body: unknown, key?: string) =>
    t.request('POST', `${B}/invoices/${id}/pay`, {
      token,
      body,
      ...(key ? { headers: { 'idempotency-key': key } } : {}),
    });
  const topUp = (token: string, amount: unknown, key?: string) =>
    t.request('POST', `${B}/credit/top-up`, {
      token,
      body: { amount },
      ...(key ? { headers: { 'idempotency-key': key } } : {}),
    });
  const get = (token: string, path: string) => t.request('GET', path, { token });
  const serviceStatus = async (token: string, id: number) =>
    (await get(token, `/api/v1/services/${id}`)).body.status as string;

  it('orders a priced plan: pending service, unpaid invoice due now; credit pays it and provisions', async () => {
    const ordered = await order(alice);
    expect(ordered.status, ordered.text).toBe(201);
    expect(ordered.body).toMatchObject({ status: 'pending', price: 4, currency: 'EUR' });
    const invoiceId = ordered.body.invoice_id as number;
    const invoice = await get(alice, `${B}/invoices/${invoiceId}`);
    expect(invoice.body).toEqual({
      id: invoiceId,
      number: expect.stringMatching(/^INV-\d{6}$/),
      status: 'unpaid',
      currency: 'EUR',
      lines: [
        {
          description: 'DNS Hosting Pro (monthly)',
          quantity: 1,
          unit_amount: 4,
          amount: 4,
          service_id: ordered.body.id,
        },
      ],
      subtotal: 4,
      tax: 0,
      total: 4,
      amount_paid: 0,
      amount_due: 4,
      amount_refunded: 0,
      due_at: new Date(clock.now()).toISOString(),
      paid_at: null,
      customer_id: null,
      seller: 'platform',
      service_ids: [ordered.body.id],
      created_at: new Date(clock.now()).toISOString(),
    });

    const short = await pay(alice, invoiceId, { method: 'credit' });
    expect([short.status, short.body]).toEqual([402, { detail: 'Insufficient credit' }]);
    const added = await topUp(alice, '10.50');
    expect([added.status, added.body]).toEqual([
      201,
      {
        id: expect.any(Number),
        type: 'credit_add',
        amount: 10.5,
        currency: 'EUR',
        balance_after: 10.5,
        invoice_id: null,
        gateway: 'manual',
        created_at: expect.any(String),
      },
    ]);
    const paid = await pay(alice, invoiceId, { method: 'credit' });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body).toMatchObject({
      status: 'paid',
      amount_paid: 4,
      amount_due: 0,
      paid_at: expect.any(String),
    });
    expect(await serviceStatus(alice, ordered.body.id)).toBe('active');
    expect((await get(alice, `${B}/credit`)).body).toEqual({ balance: 6.5, currency: 'EUR' });
    const again = await pay(alice, invoiceId, { method: 'card' });
    expect([again.status, again.body]).toEqual([409, { detail: 'Invoice is paid' }]);
    const ledger = (await get(alice, `${B}/transactions`)).body;
    expect(
      ledger.map((x: { type: string; amount: number; balance_after: number }) => [
        x.type,
        x.amount,
        x.balance_after,
      ]),
    ).toEqual([
      ['credit_deduct', 4, 6.5],
      ['credit_add', 10.5, 10.5],
    ]);
  });

  it('pays by card through the provider; a declined card changes nothing', async () => {
    const ordered = await order(bob);
    const id = ordered.body.invoice_id as number;
    const declined = await pay(bob, id, { method: 'card', payment_method: 'pm_card_chargeDeclined' });
    expect([declined.status, declined.body]).toEqual([402, { detail: 'Your card was declined.' }]);
    expect((await get(bob, `${B}/invoices/${id}`)).body).toMatchObject({ status: 'unpaid', amount_paid: 0 });
    expect((await get(bob, `${B}/transactions`)).body).toEqual([]);
    expect(await serviceStatus(bob, ordered.body.id)).toBe('pending');

    const paid = await pay(bob, id, { method: 'card', payment_method: 'pm_card_visa' });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.body).toMatchObject({ status: 'paid', amount_paid: 4 });
    expect(await serviceStatus(bob, ordered.body.id)).toBe('active');
    expect((await get(bob, `${B}/transactions`)).body).toEqual([
      expect.objectContaining({
        type: 'payment',
        amount: 4,
        balance_after: 0,
        invoice_id: id,
        gateway: 'manual',
      }),
    ]);
    expect((await get(bob, `${B}/credit`)).body).toEqual({ balance: 0, currency: 'EUR' });
  });

  it("answers 404 for another tenant's invoice", async () => {
    const ordered = await order(alice);
    const id = ordered.body.invoice_id as number;
    expect((await get(bob, `${B}/invoices/${id}`)).status).toBe(404);
    expect((await pay(bob, id, { method: 'card' })).status).toBe(404);
    expect((await get(alice, `${B}/invoices/${id}`)).status).toBe(200);
  });

  it('answers a retried order or payment with the first reply; another body under the key is 409', async () => {
    const carol = (await t.signUp()).token;
    const first = await order(carol, DNS_PRO, 'order-1');
    const second = await order(carol, DNS_PRO, 'order-1');
    expect(first.status).toBe(201);
    expect([second.status, second.body]).toEqual([201, first.body]);
    expect((await get(carol, '/api/v1/services/')).body).toHaveLength(1);
    expect((await get(carol, `${B}/invoices`)).body).toHaveLength(1);
    const other = await order(carol, { ...DNS_PRO, label: 'other' }, 'order-1');
    expect([other.status, other.body]).toEqual([
      409,
      { detail: 'Idempotency-Key reused with a different request' },
    ]);

    const id = first.body.invoice_id as number;
    const p1 = await pay(carol, id, { method: 'card' }, 'pay-1');
    const p2 = await pay(carol, id, { method: 'card' }, 'pay-1');
    expect([p1.status, p2.status]).toEqual([200, 200]);
    expect(p2.body).toEqual(p1.body);
    expect((await get(carol, `${B}/transactions`)).body).toHaveLength(1);
    const t1 = await topUp(carol, 5, 'top-1');
    const t2 = await topUp(carol, 5, 'top-1');
    expect(t2.body).toEqual(t1.body);
    expect((await get(carol, `${B}/credit`)).body.balance).toBe(5);
    expect((await topUp(carol, 6, 'top-1')).status).toBe(409);
    const bad = await t.request('POST', `${B}/credit/top-up`, {
      token: carol,
      body: { amount: 1 },
      headers: { 'idempotency-key': 'x'.repeat(256) },
    });
    expect([bad.status, bad.body.detail[0].loc]).toEqual([422, ['header', 'idempotency-key']]);
  });

  it('refuses account API keys on every billing route', async () => {
    for (const [method, path] of [
      ['GET', `${B}/invoices`],
      ['GET', `${B}/transactions`],
      ['GET', `${B}/credit`],
      ['POST', `${B}/credit/top-up`],
    ] as const) {
      const res = await t.request(method, path, {
        headers: { authorization: 'Bearer acct_whatever' },
        ...(method === 'POST' ? { body: { amount: 1 } } : {}),
      });
      expect([res.status, res.body], path).toEqual([
        401,
        { detail: 'Account API keys are not accepted; sign in and send the access token' },
      ]);
    }
  });

  it("bills an organization's order to the organization: members read it, its webhooks hear invoice.paid", async () => {
    const owner = await t.signUp();
    const member = await t.signUp();
    const slug = `bill-${Date.now().toString(36)}`;
    const org = await createOrg(t, owner.token, slug);
    await addMember(t, owner.token, slug, member.email, 'member');
    const ordered = await order(owner.token, { ...DNS_PRO, org_slug: slug });
    const id = ordered.body.invoice_id as number;
    expect((await get(member.token, `${B}/invoices/${id}`)).status).toBe(200);
    expect((await pay(member.token, id, { method: 'card' })).status).toBe(403);
    const paid = await pay(owner.token, id, { method: 'card' });
    expect(paid.status, paid.text).toBe(200);
    const outbox = await tablesOf<{ events: { name: string; org_id: number; payload: unknown } }>(
      t.node.runtime,
    )
      .selectFrom('events')
      .select(['payload'])
      .where('name', '=', 'invoice.paid')
      .where('org_id', '=', org.id)
      .execute();
    expect(outbox).toHaveLength(1);
    expect(JSON.stringify(outbox[0]!.payload)).toContain(paid.body.number);
  });

  it('takes credit once when two payments of the same account race for it', async () => {
    const frank = (await t.signUp()).token;
    const a = (await order(frank)).body.invoice_id as number;
    const b = (await order(frank)).body.invoice_id as number;
    await topUp(frank, 4);
    const results = await Promise.all([
      pay(frank, a, { method: 'credit' }),
      pay(frank, b, { method: 'credit' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 402]);
    expect((await get(frank, `${B}/credit`)).body.balance).toBe(0);
    const same = await Promise.all([1, 2, 3].map(() => order(frank, DNS_PRO, 'race-1')));
    const created = new Set(same.filter((r) => r.status === 201).map((r) => r.body.id));
    expect(created.size).toBe(1);
    for (const r of same) expect([201, 409]).toContain(r.status);
    expect((await get(frank, '/api/v1/services/')).body).toHaveLength(3);
  });

  it('checks top-up amounts: > 0, at most 10000, two decimals', async () => {
    for (const amount of [0, -1, '10000.01', '1.001', 'abc', 20000])
      expect((await topUp(alice, amount)).body.detail?.[0]?.loc, String(amount)).toEqual(['body', 'amount']);
    expect((await topUp(alice, '10000')).status).toBe(201);
  });

  it('pages lists 50/200 newest first (ties on id), with totals and counts that ignore their own filter', async () => {
    const dave = (await t.signUp()).token;
    const ids: number[] = [];
    for (let i = 0; i < 53; i++) ids.push((await order(dave)).body.invoice_id as number);
    await pay(dave, ids[0]!, { method: 'card' });
    await pay(dave, ids[1]!, { method: 'card' });
    await topUp(dave, 1);
    const list = (q: string) => get(dave, `${B}/invoices${q}`);
    const byDefault = (await list('')).body as { id: number }[];
    expect(byDefault.map((i) => i.id)).toEqual([...ids].reverse().slice(0, 50));
    expect(((await list('?page=2')).body as unknown[]).length).toBe(3);
    expect(((await list('?limit=200')).body as unknown[]).length).toBe(53);
    const over = await list('?limit=201');
    expect([over.status, over.body.detail[0].loc]).toEqual([422, ['query', 'limit']]);
    expect((await list('?limit=0')).status).toBe(422);
    const paid = await list('?status_filter=paid&with_total=true&limit=1');
    expect(paid.body).toEqual({
      items: [expect.objectContaining({ id: ids[1], status: 'paid' })],
      total: 2,
      page: 1,
      limit: 1,
      counts: { all: 53, open: 51, draft: 0, unpaid: 51, paid: 2, cancelled: 0, refunded: 0, overdue: 0 },
    });
    expect((await list('?status_filter=open&with_total=true')).body.total).toBe(51);
    const unknown = await list('?status_filter=late');
    expect([unknown.status, unknown.body.error]).toEqual([422, 'invalid_status_filter']);

    const tx = (q: string) => get(dave, `${B}/transactions${q}`);
    const credit = await tx('?type_filter=credit&with_total=true');
    expect(credit.body).toEqual({
      items: [expect.objectContaining({ type: 'credit_add' })],
      total: 1,
      page: 1,
      limit: 50,
      counts: { all: 3, payment: 2, refund: 0, credit_add: 1, credit_deduct: 0, credit: 1 },
    });
    expect(
      ((await tx('?type_filter=payment')).body as { invoice_id: number }[]).map((x) => x.invoice_id),
    ).toEqual([ids[1], ids[0]]);
    expect((await tx('?type_filter=chargeback')).status).toBe(422);
    expect((await tx('?limit=201')).status).toBe(422);
    expect((await tx('?limit=200')).status).toBe(200);
  });

  it('never drifts: the ledger sums to the credit balance and to what each paid invoice received', async () => {
    const erin = (await t.signUp()).token;
    await topUp(erin, '12.34');
    for (let i = 0; i < 4; i++) {
      const id = (await order(erin)).body.invoice_id as number;
      await pay(erin, id, { method: i % 2 === 0 ? 'credit' : 'card' });
      clock.advance(1000);
    }
    await topUp(erin, '0.66');
    await pay(erin, (await order(erin)).body.invoice_id as number, { method: 'credit' });
    expect((await get(erin, `${B}/credit`)).body.balance).toBe(1); // 12.34 + 0.66 - 3 × 4 (three invoices paid from credit)
    // Then a seeded mix of orders, top-ups and payments (some declined, some short of credit), three
    // at a time, by two accounts.
    const helen = (await t.signUp()).token;
    const random = createSeededRandom(34);
    const step = async (token: string): Promise<void> => {
      const action = random.int(4);
      if (action === 0) await order(token);
      else if (action === 1) await topUp(token, (1 + random.int(2000)) / 100);
      else {
        const open = (await get(token, `${B}/invoices?status_filter=open`)).body as { id: number }[];
        if (open.length === 0) return;
        const body = random.pick([
          { method: 'credit' },
          { method: 'card' },
          { method: 'card', payment_method: 'pm_card_chargeDeclined' },
        ]);
        const res = await pay(token, random.pick(open).id, body);
        expect([200, 402, 409], res.text).toContain(res.status);
      }
    };
    for (let round = 0; round < 15; round++)
      await Promise.all([step(erin), step(helen), step(random.int(2) === 0 ? erin : helen)]);
    const helenCredit = (await get(helen, `${B}/credit`)).body.balance as number;
    const helenRows = (await get(helen, `${B}/transactions`)).body as { balance_after: number }[];
    expect(helenRows.length).toBeGreaterThan(0);
    expect(helenRows[0]!.balance_after).toBe(helenCredit);
    const db = tablesOf<BillingTables>(t.node.runtime);
    const credit = (await get(erin, `${B}/credit`)).body.balance as number;
    const ledger = await db.selectFrom('billing_transactions').selectAll().execute();
    const users = new Set(ledger.map((r) => Number(r.user_id)));
    for (const user of users) {
      const rows = ledger
        .filter((r) => Number(r.user_id) === user)
        .sort((a, b) => Number(a.id) - Number(b.id));
      let running = 0;
      for (const r of rows) {
        running += Number(r.credit_delta_minor);
        expect(Number(r.balance_after_minor)).toBe(running);
      }
    }
    const erinRows = (await get(erin, `${B}/transactions`)).body as { balance_after: number }[];
    expect(erinRows[0]!.balance_after).toBe(credit);
    const invoices = await db.selectFrom('billing_invoices').selectAll().execute();
    for (const inv of invoices) {
      const paidIn = ledger
        .filter((r) => Number(r.invoice_id) === Number(inv.id))
        .reduce((s, r) => s + Number(r.amount_minor), 0);
      expect(paidIn, inv.number).toBe(Number(inv.amount_paid_minor));
      if (inv.status === 'paid') expect(Number(inv.amount_paid_minor)).toBe(Number(inv.total_minor));
    }
  });
  // Last: it moves the clock a day on.
  it('takes over a claim left without a reply after 5 minutes, and a key after 24 hours', async () => {
    const gina = await t.signUp();
    const me = (await get(gina.token, '/api/v1/auth/me')).body as { id: number };
    await tablesOf<IdempotencyTables>(t.node.runtime)
      .insertInto('idempotency_keys')
      .values({
        user_id: me.id,
        route: 'services.order',
        key: 'stuck',
        request_hash: 'x',
        response_status: null,
        response_body: null,
        created_at: new Date(clock.now()),
      })
      .execute();
    const busy = await order(gina.token, DNS_PRO, 'stuck');
    // The claim was made for another request (its hash is not this one's), and has not answered.
    expect([busy.status, busy.body]).toEqual([
      409,
      { detail: 'Idempotency-Key reused with a different request' },
    ]);
    clock.advance(6 * 60_000);
    const taken = await order(gina.token, DNS_PRO, 'stuck');
    expect(taken.status, taken.text).toBe(201);
    expect((await order(gina.token, { ...DNS_PRO, label: 'b' }, 'stuck')).status).toBe(409);
    clock.advance(25 * 3600_000);
    const token = await t.signIn(gina.email);
    const fresh = await order(token, { ...DNS_PRO, label: 'b' }, 'stuck');
    expect(fresh.status, fresh.text).toBe(201);
    expect(fresh.body.id).not.toBe(taken.body.id);
  });
});
