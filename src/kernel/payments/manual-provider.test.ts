import { describe, expect, it } from 'vitest';
import { createPaymentProvider } from './create-payment-provider.ts';
import { ManualPaymentProvider } from './manual-provider.ts';
import { PaymentProviderError, type AuthorizeRequest, type ChargeRequest } from './payment-provider.ts';

const request = (over: Partial<ChargeRequest> = {}): ChargeRequest => ({
  amountMinor: 400,
  currency: 'usd',
  paymentMethod: null,
  payer: 'user:1',
  description: 'Invoice INV-000001',
  idempotencyKey: 'k1',
  metadata: { invoice_id: '1' },
  ...over,
});

const counter = (): (() => string) => {
  let n = 0;
  return () => `r${++n}`;
};

describe('manual payment provider', () => {
  it('succeeds with a manual_ reference from the injected randomness', async () => {
    const p = new ManualPaymentProvider(counter());
    expect(await p.charge(request())).toEqual({
      status: 'succeeded',
      gateway: 'manual',
      reference: 'manual_r1',
    });
    expect(await p.charge(request({ idempotencyKey: 'k2', paymentMethod: 'pm_card_visa' }))).toEqual({
      status: 'succeeded',
      gateway: 'manual',
      reference: 'manual_r2',
    });
  });

  it("declines Stripe's decline test token with its code and reason", async () => {
    const p = new ManualPaymentProvider(counter());
    expect(await p.charge(request({ paymentMethod: 'pm_card_chargeDeclined' }))).toEqual({
      status: 'declined',
      gateway: 'manual',
      code: 'card_declined',
      reason: 'Your card was declined.',
    });
  });

  it('answers the first result again for the same idempotency key', async () => {
    const p = new ManualPaymentProvider(counter());
    const first = await p.charge(request());
    expect(await p.charge(request({ amountMinor: 999 }))).toEqual(first);
    expect(await p.charge(request({ idempotencyKey: 'other' }))).not.toEqual(first);
    const r1 = await p.refund({ reference: 'manual_r1', amountMinor: 100, idempotencyKey: 'rf' });
    expect(await p.refund({ reference: 'manual_r1', amountMinor: 100, idempotencyKey: 'rf' })).toEqual(r1);
  });

  it('is the default provider', async () => {
    const p = createPaymentProvider({ random: counter() });
    expect(p.gateway).toBe('manual');
    expect(await p.charge(request())).toMatchObject({ reference: 'manual_r1' });
  });
});

const order = (over: Partial<AuthorizeRequest> = {}): AuthorizeRequest => ({
  amountMinor: 2599,
  currency: 'eur',
  paymentMethod: null,
  idempotencyKey: 'order-1',
  metadata: { order_id: '1' },
  description: 'Order #1',
  ...over,
});

describe('manual payment provider: pay-later authorizations', () => {
  it('authorizes at once, with or without a method, and captures at order completion', async () => {
    const p = new ManualPaymentProvider(counter());
    const held = await p.authorize(order());
    expect(held).toEqual({
      reference: 'manual_pi_r1_2599_eur',
      status: 'authorized',
      clientSecret: null,
      amountMinor: 2599,
      currency: 'eur',
    });
    expect(
      await p.authorize(order({ idempotencyKey: 'order-2', paymentMethod: 'pm_card_visa' })),
    ).toMatchObject({ reference: 'manual_pi_r2_2599_eur', status: 'authorized' });
    expect(await p.retrieve(held.reference)).toEqual(held);
    const captured = await p.capture(held.reference, 'cap-1');
    expect(captured).toEqual({ ...held, status: 'captured' });
    expect(await p.capture(held.reference, 'cap-2')).toEqual(captured);
    expect(await p.retrieve(held.reference)).toEqual(captured);
  });

  it('declines a decline token, then authorizes another method confirmed on the same payment', async () => {
    const p = new ManualPaymentProvider(counter());
    const declined = await p.authorize(order({ paymentMethod: 'pm_card_chargeDeclinedInsufficientFunds' }));
    expect(declined).toEqual({
      reference: 'manual_pi_r1_2599_eur',
      status: 'declined',
      clientSecret: null,
      amountMinor: 2599,
      currency: 'eur',
      declineCode: 'insufficient_funds',
      declineReason: 'Your card has insufficient funds.',
    });
    await expect(p.capture(declined.reference, 'cap-1')).rejects.toThrow(/status is declined/);
    const confirmed = await p.confirm(declined.reference, 'pm_card_visa', 'confirm-1');
    expect(confirmed).toEqual({
      reference: declined.reference,
      status: 'authorized',
      clientSecret: null,
      amountMinor: 2599,
      currency: 'eur',
    });
    expect(await p.confirm(declined.reference, 'pm_card_chargeDeclined', 'confirm-1')).toEqual(confirmed);
  });

  it('cancels what was not captured, twice alike; a captured one cannot be', async () => {
    const p = new ManualPaymentProvider(counter());
    const held = await p.authorize(order());
    const canceled = await p.cancel(held.reference);
    expect(canceled).toEqual({ ...held, status: 'canceled' });
    expect(await p.cancel(held.reference)).toEqual(canceled);
    await expect(p.capture(held.reference, 'cap-1')).rejects.toThrow(/status is canceled/);
    await expect(p.confirm(held.reference, 'pm_card_visa', 'c-1')).rejects.toThrow(PaymentProviderError);
    const paid = await p.authorize(order({ idempotencyKey: 'order-2' }));
    await p.capture(paid.reference, 'cap-2');
    await expect(p.cancel(paid.reference)).rejects.toThrow(/Cannot cancel payment .* status is captured/);
  });

  it('answers the first authorization again for the same key', async () => {
    const p = new ManualPaymentProvider(counter());
    const first = await p.authorize(order());
    expect(await p.authorize(order({ amountMinor: 1 }))).toEqual(first);
    expect((await p.authorize(order({ idempotencyKey: 'order-2' }))).reference).not.toBe(first.reference);
  });

  it('after a restart, answers for a reference it no longer holds from the reference itself', async () => {
    const before = new ManualPaymentProvider(counter());
    const held = await before.authorize(order({ amountMinor: 700, currency: 'usd' }));
    const after = new ManualPaymentProvider(counter());
    expect(await after.retrieve(held.reference)).toEqual(held);
    expect(await after.capture(held.reference, 'cap-1')).toMatchObject({
      status: 'captured',
      amountMinor: 700,
      currency: 'usd',
    });
    const err = await after.retrieve('pi_notManual').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PaymentProviderError);
    expect((err as PaymentProviderError).gateway).toBe('manual');
  });
});
