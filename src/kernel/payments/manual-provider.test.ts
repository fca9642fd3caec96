import { describe, expect, it } from 'vitest';
import { createPaymentProvider } from './create-payment-provider.ts';
import { ManualPaymentProvider } from './manual-provider.ts';
import type { ChargeRequest } from './payment-provider.ts';

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
