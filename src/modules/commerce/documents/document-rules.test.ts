/**
 * The pure rules of order documents: amounts printed with their currency's minor units, a refund's
 * lines and tax share, the seller of record by billing mode, the buyer from the order's addresses.
 */
import { describe, expect, it } from 'vitest';
import type { CommerceOrderItemRow } from '../commerce-tables.ts';
import { creditNoteLines } from './document-lines.ts';
import { buyerOf, sellerOfRecord } from './document-parties.ts';
import { formatAmount } from './document-pdf.ts';
import { documentNumber, shareOf } from './order-document.ts';

const PLATFORM = { legalName: 'Example Hosting SRL', address: ['1 Rue Neuve'], vatId: 'BE0123456789' };

describe('order document rules', () => {
  it('prints amounts with the currency’s own decimals', () => {
    expect(formatAmount(123456, 'EUR')).toBe('EUR 1,234.56');
    expect(formatAmount(5, 'EUR')).toBe('EUR 0.05');
    expect(formatAmount(1200, 'JPY')).toBe('JPY 1,200');
    expect(formatAmount(1500, 'KWD')).toBe('KWD 1.500');
    expect(formatAmount(-250, 'USD')).toBe('USD -2.50');
  });

  it('numbers documents by kind, year and count', () => {
    expect(documentNumber('invoice', 2026, 123)).toBe('INV-2026-000123');
    expect(documentNumber('credit_note', 2026, 45)).toBe('CN-2026-000045');
    expect(documentNumber('invoice', 2026, 1_234_567)).toBe('INV-2026-1234567');
  });

  it('shares a tax in proportion, rounded half up, in integers', () => {
    expect(shareOf(492, 2950, 2950)).toBe(492);
    expect(shareOf(492, 1475, 2950)).toBe(246);
    expect(shareOf(5, 1, 2)).toBe(3);
    expect(shareOf(5, 1, 0)).toBe(0);
  });

  it('makes a credit note’s lines from a return’s items, the rest as one Refund line', () => {
    const item = { id: 7, title: 'Mug — One', sku: 'MUG' } as unknown as CommerceOrderItemRow;
    const refund = {
      id: 1,
      order_id: 1,
      return_id: 3,
      amount: 3000,
      currency_code: 'EUR',
      reason: 'return',
      allocations: [],
      lines: [{ order_item_id: 7, quantity: 2, amount: 2500 }],
    };
    expect(creditNoteLines([item], refund)).toEqual([
      {
        description: 'Mug — One',
        sku: 'MUG',
        quantity: 2,
        unit_price_minor: 1250,
        tax_minor: null,
        amount_minor: 2500,
      },
      {
        description: 'Refund',
        sku: null,
        quantity: 1,
        unit_price_minor: 500,
        tax_minor: null,
        amount_minor: 500,
      },
    ]);
    expect(creditNoteLines([item], { ...refund, amount: 900, lines: [] })).toEqual([
      {
        description: 'Refund',
        sku: null,
        quantity: 1,
        unit_price_minor: 900,
        tax_minor: null,
        amount_minor: 900,
      },
    ]);
  });

  it('names the seller of record by billing mode', () => {
    const facts = (billingMode: string, sellerOfRecord = 'organization') => ({
      org: { id: 4, name: 'Acme SRL', billingMode },
      storeName: null,
      supportEmail: 'help@acme.example',
      sellerOfRecord,
    });
    expect(sellerOfRecord(facts('platform_mor'), PLATFORM)).toMatchObject({
      key: 'platform',
      seller: { type: 'platform', name: 'Example Hosting SRL', vat_id: 'BE0123456789' },
    });
    expect(sellerOfRecord(facts('merchant_of_record', 'platform'), PLATFORM)).toMatchObject({
      key: 'org:4',
      seller: { type: 'organization', name: 'Acme SRL', email: 'help@acme.example' },
    });
    expect(sellerOfRecord(facts('hybrid'), PLATFORM).key).toBe('org:4');
    expect(sellerOfRecord(facts('hybrid', 'platform'), PLATFORM).key).toBe('platform');
  });

  it('takes the buyer from the billing address, else the shipping address, else the e-mail', () => {
    const billing = {
      first_name: 'Ann',
      last_name: 'Lee',
      company: 'Lee SARL',
      city: 'Paris',
      country_code: 'fr',
    };
    expect(buyerOf('ann@x.example', billing, { first_name: 'Bob' })).toEqual({
      name: 'Ann Lee',
      address: ['Lee SARL', 'Paris', 'FR'],
      email: 'ann@x.example',
      vat_id: null,
    });
    expect(buyerOf('ann@x.example', null, { first_name: 'Bob' }).name).toBe('Bob');
    expect(buyerOf('ann@x.example', null, null)).toEqual({
      name: 'ann@x.example',
      address: [],
      email: 'ann@x.example',
      vat_id: null,
    });
  });
});
