import { describe, expect, it } from 'vitest';
import { bytesToIpv6, ipv4ToBytes, ipv6ToBytes } from './ip-address-text.ts';

const v6 = (s: string): string => bytesToIpv6(ipv6ToBytes(s)!);

describe('ip-address-text', () => {
  it('parses strict IPv4', () => {
    expect(ipv4ToBytes('192.0.2.1')).toEqual(Uint8Array.of(192, 0, 2, 1));
    for (const bad of ['1.2.3', '01.2.3.4', '256.1.1.1', '1.2.3.4.5', ' 1.2.3.4'])
      expect(ipv4ToBytes(bad)).toBeNull();
  });
  it('prints IPv6 in RFC 5952 form', () => {
    expect(v6('2001:0DB8:0000:0000:0000:0000:0000:0001')).toBe('2001:db8::1');
    expect(v6('2001:db8:0:0:1:0:0:1')).toBe('2001:db8::1:0:0:1');
    expect(v6('2001:db8:0:1:1:1:1:1')).toBe('2001:db8:0:1:1:1:1:1');
    expect(v6('::')).toBe('::');
    expect(v6('::1')).toBe('::1');
    expect(v6('1::')).toBe('1::');
    expect(v6('::ffff:192.0.2.1')).toBe('::ffff:192.0.2.1');
    expect(v6('2001:db8:122:344::192.0.2.33')).toBe('2001:db8:122:344::c000:221');
  });
  it('rejects non-IPv6', () => {
    for (const bad of ['1.2.3.4', 'fe80::1%eth0', '1::2::3', '12345::', 'g::1'])
      expect(ipv6ToBytes(bad)).toBeNull();
  });
});
