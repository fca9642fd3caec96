import { describe, expect, it } from 'vitest';
import type { OfferOption } from '../catalog/index.ts';
import { optionPriceLines } from './order-config.ts';

const option = (o: Partial<OfferOption> & Pick<OfferOption, 'field_name' | 'field_type'>): OfferOption => ({
  label: o.field_name,
  options: null,
  default_value: null,
  required: false,
  price_modifier: '0',
  ...o,
});

describe('the invoice lines of an order’s priced options', () => {
  const options = [
    option({ field_name: 'backups', label: 'Backups', field_type: 'boolean', price_modifier: '0.9' }),
    option({ field_name: 'ips', label: 'Extra IPs', field_type: 'number', price_modifier: '1.5000' }),
    option({ field_name: 'os', label: 'OS', field_type: 'select', price_modifier: '2.00' }),
    option({ field_name: 'max_zones', field_type: 'number', price_modifier: '0.00' }),
  ];

  it('adds a true boolean once, a number per unit, a set select once; free options add nothing', () => {
    expect(optionPriceLines(options, { backups: true, ips: 3, os: 'debian', max_zones: 5 })).toEqual([
      { description: 'Backups', quantity: 1, unitPrice: '0.9' },
      { description: 'Extra IPs: 3', quantity: 3, unitPrice: '1.5000' },
      { description: 'OS: debian', quantity: 1, unitPrice: '2.00' },
    ]);
  });

  it('adds nothing for a false boolean, zero units or an unset option', () => {
    expect(optionPriceLines(options, { backups: false, ips: 0 })).toEqual([]);
  });
});
