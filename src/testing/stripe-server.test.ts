import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeStripeForm, startStripeServer, type StripeServer } from './stripe-server.ts';

/** The local Stripe server's wire format, as raw HTTP (the adapter's tests go through the SDK). */
type Answer = { error: Record<string, unknown> } & Record<string, unknown>;

let server: StripeServer;
beforeAll(async () => {
  server = await startStripeServer({ secretKey: 'sk_test_localServerKey1234' });
});
afterAll(async () => {
  await server.close();
});

async function post(path: string, body: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${server.secretKey}`,
      'content-type': 'application/x-www-form-urlencoded',
      ...headers,
    },
    body,
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Answer };
}

describe('local Stripe server', () => {
  it('decodes bracket notation, arrays included', () => {
    expect(decodeStripeForm('a=1&metadata[invoice_id]=inv%201&x[0]=p&x[1]=q&n[d][e]=f')).toEqual({
      a: '1',
      metadata: { invoice_id: 'inv 1' },
      x: ['p', 'q'],
      n: { d: { e: 'f' } },
    });
  });

  it('answers 401 without a key or with another, showing only its last four characters', async () => {
    const none = await fetch(`${server.url}/v1/payment_intents`, { method: 'POST' });
    expect(none.status).toBe(401);
    expect(((await none.json()) as Answer).error).toMatchObject({
      type: 'invalid_request_error',
      message: expect.stringMatching(/^You did not provide an API key/),
    });
    const wrong = await post('/v1/payment_intents', 'amount=100', {
      authorization: 'Bearer sk_test_abcdefgh9876',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({
      error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_********9876' },
    });
    expect(wrong.headers.get('request-id')).toMatch(/^req_/);
  });

  it('takes the key as the Basic user name too (curl -u sk_…:)', async () => {
    const basic = Buffer.from(`${server.secretKey}:`).toString('base64');
    const res = await post('/v1/payment_intents', 'amount=100&currency=usd', {
      authorization: `Basic ${basic}`,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'payment_intent', status: 'requires_payment_method' });
  });

  it('replays an idempotent answer, declines included, and refuses the key with other parameters', async () => {
    const body = 'amount=700&currency=usd&payment_method=pm_card_chargeDeclined&confirm=true';
    const first = await post('/v1/payment_intents', body, { 'idempotency-key': 'k1' });
    expect(first.status).toBe(402);
    expect(first.body.error).toMatchObject({
      type: 'card_error',
      code: 'card_declined',
      decline_code: 'generic_decline',
      message: 'Your card was declined.',
      payment_intent: { status: 'requires_payment_method' },
    });
    const again = await post('/v1/payment_intents', body, { 'idempotency-key': 'k1' });
    expect(again.status).toBe(402);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('original-request')).toBe(first.headers.get('request-id'));
    const other = await post('/v1/payment_intents', body.replace('700', '701'), { 'idempotency-key': 'k1' });
    expect(other.status).toBe(400);
    expect(other.body.error).toMatchObject({ type: 'idempotency_error' });
  });

  it('does not keep an answer to invalid parameters under its key', async () => {
    const missing = await post('/v1/payment_intents', 'currency=usd', { 'idempotency-key': 'k2' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'parameter_missing', param: 'amount' });
    const fixed = await post('/v1/payment_intents', 'amount=100&currency=usd', { 'idempotency-key': 'k2' });
    expect(fixed.status).toBe(200);
  });

  it('answers an unknown URL and an unknown object with 404s in the error shape', async () => {
    expect((await post('/v1/nothing', '')).body.error.message).toMatch(
      /^Unrecognized request URL \(POST: \/v1\/nothing\)/,
    );
    const res = await fetch(`${server.url}/v1/payment_intents/pi_nope`, {
      headers: { authorization: `Bearer ${server.secretKey}` },
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as Answer).error).toMatchObject({ code: 'resource_missing' });
  });
});
