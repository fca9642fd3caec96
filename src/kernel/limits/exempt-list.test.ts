import { describe, expect, it } from 'vitest';
import { ExemptList } from './exempt-list.ts';

describe('ExemptList', () => {
  const list = new ExemptList(['127.0.0.0/8', '10.1.2.3', '2001:db8::/32', '::1']);

  it('matches IPv4 ranges and single addresses, mapped IPv6 included', () => {
    expect(list.has('127.0.0.1')).toBe(true);
    expect(list.has('127.255.255.254')).toBe(true);
    expect(list.has('::ffff:127.0.0.1')).toBe(true);
    expect(list.has('10.1.2.3')).toBe(true);
    expect(list.has('10.1.2.4')).toBe(false);
    expect(list.has('128.0.0.1')).toBe(false);
    expect(list.has('203.0.113.9')).toBe(false);
  });

  it('matches IPv6 ranges and refuses what is not an address', () => {
    expect(list.has('2001:db8::1')).toBe(true);
    expect(list.has('::1')).toBe(true);
    expect(list.has('2001:db9::1')).toBe(false);
    expect(list.has('1.2.3')).toBe(false);
    expect(list.has('1.2.3.256')).toBe(false);
    expect(list.has('not an address')).toBe(false);
    expect(new ExemptList([]).has('127.0.0.1')).toBe(false);
    expect(new ExemptList(['0.0.0.0/0']).has('198.51.100.7')).toBe(true);
  });

  it('refuses an entry that is not an address', () => {
    expect(() => new ExemptList(['example.com'])).toThrow(/LIMITS_EXEMPT/);
  });
});
