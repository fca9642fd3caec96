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

async function get(path: string) {
  const res = await fetch(`${server.url}${path}`, {
    headers: { authorization: `Bearer ${server.secretKey}` },
  });
  return { status: res.status, body: (await res.json()) as Answer };
}

describe('local Stripe server: PaymentIntents with manual capture', () => {
  const manual = 'amount=1500&currency=eur&capture_method=manual&allowed_payment_method_types[0]=card';

  it('holds a confirmed card at requires_capture, then captures it once', async () => {
    const held = await post('/v1/payment_intents', `${manual}&payment_method=pm_card_visa&confirm=true`);
    expect(held.status).toBe(200);
    const id = held.body.id as string;
    expect(held.body).toMatchObject({
      id: expect.stringMatching(/^pi_/) as string,
      object: 'payment_intent',
      amount: 1500,
      amount_capturable: 1500,
      amount_received: 0,
      currency: 'eur',
      status: 'requires_capture',
      capture_method: 'manual',
      client_secret: expect.stringMatching(new RegExp(`^${id}_secret_`)) as string,
      payment_method: 'pm_card_visa',
      payment_method_types: ['card'],
      allowed_payment_method_types: ['card'],
      last_payment_error: null,
      next_action: null,
      latest_charge: expect.stringMatching(/^ch_/) as string,
    });
    expect((await get(`/v1/payment_intents/${id}`)).body).toEqual(held.body);
    const captured = await post(`/v1/payment_intents/${id}/capture`, '', { 'idempotency-key': `cap-${id}` });
    expect(captured.body).toMatchObject({ status: 'succeeded', amount_received: 1500, amount_capturable: 0 });
    const replay = await post(`/v1/payment_intents/${id}/capture`, '', { 'idempotency-key': `cap-${id}` });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const twice = await post(`/v1/payment_intents/${id}/capture`, '');
    expect(twice.status).toBe(400);
    expect(twice.body.error).toMatchObject({
      type: 'invalid_request_error',
      code: 'payment_intent_unexpected_state',
      message: expect.stringMatching(/could not be captured because it has a status of succeeded/) as string,
    });
    const refund = await post('/v1/refunds', `payment_intent=${id}&amount=1500`);
    expect(refund.status).toBe(200);
  });

  it('confirms later with a method; a declined confirmation is a 402 card_error carrying the intent', async () => {
    const open = await post('/v1/payment_intents', manual);
    const id = open.body.id as string;
    expect(open.body).toMatchObject({ status: 'requires_payment_method', payment_method: null });
    const declined = await post(
      `/v1/payment_intents/${id}/confirm`,
      'payment_method=pm_card_chargeDeclined',
      {
        'idempotency-key': `c1-${id}`,
      },
    );
    expect(declined.status).toBe(402);
    expect(declined.body.error).toMatchObject({
      type: 'card_error',
      code: 'card_declined',
      decline_code: 'generic_decline',
      message: 'Your card was declined.',
      payment_intent: {
        id,
        status: 'requires_payment_method',
        last_payment_error: { code: 'card_declined', decline_code: 'generic_decline' },
      },
    });
    const reused = await post(`/v1/payment_intents/${id}/confirm`, 'payment_method=pm_card_visa', {
      'idempotency-key': `c1-${id}`,
    });
    expect(reused.status).toBe(400);
    expect(reused.body.error).toMatchObject({ type: 'idempotency_error' });
    const confirmed = await post(`/v1/payment_intents/${id}/confirm`, 'payment_method=pm_card_visa');
    expect(confirmed.body).toMatchObject({ status: 'requires_capture', last_payment_error: null });
  });

  it('3-D Secure: requires_action with use_stripe_sdk until the challenge is passed', async () => {
    const body = `${manual}&payment_method=pm_card_authenticationRequired&confirm=true`;
    const pending = await post('/v1/payment_intents', body);
    const id = pending.body.id as string;
    expect(pending.body).toMatchObject({
      status: 'requires_action',
      next_action: { type: 'use_stripe_sdk' },
    });
    expect((await post(`/v1/payment_intents/${id}/capture`, '')).status).toBe(400);
    server.completeAuthentication(id);
    expect((await get(`/v1/payment_intents/${id}`)).body).toMatchObject({
      status: 'requires_capture',
      next_action: null,
      amount_capturable: 1500,
    });
    expect(() => server.completeAuthentication(id)).toThrow(/not waiting for authentication/);
  });

  it('cancels what was not captured, once; a captured one cannot be', async () => {
    const held = await post('/v1/payment_intents', `${manual}&payment_method=pm_card_visa&confirm=true`);
    const id = held.body.id as string;
    const canceled = await post(`/v1/payment_intents/${id}/cancel`, '');
    expect(canceled.body).toMatchObject({
      status: 'canceled',
      amount_capturable: 0,
      amount_received: 0,
      canceled_at: expect.any(Number) as number,
    });
    const again = await post(`/v1/payment_intents/${id}/cancel`, '');
    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({
      code: 'payment_intent_unexpected_state',
      message: expect.stringMatching(
        /^You cannot cancel this PaymentIntent because it has a status of canceled/,
      ) as string,
    });
    expect(server.intentStatuses().find((pi) => pi.id === id)).toEqual({
      id,
      status: 'canceled',
      amount: 1500,
      amountReceived: 0,
    });
    const missing = await post('/v1/payment_intents/pi_nope/capture', '');
    expect(missing.status).toBe(404);
  });
});
