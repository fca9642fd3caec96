import { describe, expect, it } from 'vitest';
import { classifyAddress, isAllowedTarget, parseAddress, type AddressClass } from './address-policy.ts';

const TABLE: readonly [string, AddressClass | null][] = [
  ['8.8.8.8', 'public'],
  ['1.1.1.1', 'public'],
  ['0.0.0.0', 'reserved'],
  ['0.1.2.3', 'reserved'],
  ['10.0.0.1', 'private'],
  ['100.64.0.1', 'private'],
  ['100.127.255.255', 'private'],
  ['100.128.0.1', 'public'],
  ['127.0.0.1', 'loopback'],
  ['127.255.0.9', 'loopback'],
  ['169.254.169.254', 'reserved'],
  ['172.15.255.255', 'public'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['172.32.0.1', 'public'],
  ['192.0.0.1', 'reserved'],
  ['192.0.0.9', 'public'],
  ['192.0.0.10', 'public'],
  ['192.0.2.1', 'reserved'],
  ['192.88.99.1', 'reserved'],
  ['192.168.1.1', 'private'],
  ['198.18.0.1', 'reserved'],
  ['198.19.255.255', 'reserved'],
  ['198.20.0.1', 'public'],
  ['198.51.100.7', 'reserved'],
  ['203.0.113.5', 'reserved'],
  ['224.0.0.1', 'reserved'],
  ['239.255.255.255', 'reserved'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'reserved'],
  ['2606:4700:4700::1111', 'public'],
  ['2a00:1450:4001:81b::200e', 'public'],
  ['::', 'reserved'],
  ['::1', 'loopback'],
  ['::ffff:8.8.8.8', 'public'],
  ['::ffff:10.1.2.3', 'private'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:192.0.2.1', 'reserved'],
  ['64:ff9b::808:808', 'public'],
  ['64:ff9b::a00:1', 'private'],
  ['64:ff9b:1::1', 'reserved'],
  ['100::1', 'reserved'],
  ['2001::1', 'reserved'],
  ['2001:2::1', 'reserved'],
  ['2001:1::1', 'public'],
  ['2001:1::2', 'public'],
  ['2001:1::4', 'reserved'],
  ['2001:3::1', 'public'],
  ['2001:4:112::1', 'public'],
  ['2001:20::1', 'public'],
  ['2001:30::1', 'public'],
  ['2001:200::1', 'public'],
  ['2001:db8::1', 'reserved'],
  ['2002:808:808::1', 'public'],
  ['2002:c0a8:101::1', 'private'],
  ['2002:7f00:1::1', 'loopback'],
  ['3fff::1', 'reserved'],
  ['fc00::1', 'private'],
  ['fd12:3456::1', 'private'],
  ['fe80::1', 'reserved'],
  ['fec0::1', 'reserved'],
  ['ff02::1', 'reserved'],
  ['4000::1', 'reserved'],
  ['::8.8.8.8', 'reserved'],
  ['example.com', null],
  ['1.2.3', null],
  ['01.2.3.4', null],
  ['1.2.3.256', null],
  ['fe80::1%eth0', null],
  ['', null],
];

describe('address policy', () => {
  it.each(TABLE)('%s is %s', (address, cls) => {
    expect(classifyAddress(address)).toBe(cls);
  });

  it('admits private and loopback only when allowed, reserved never', () => {
    expect(isAllowedTarget('public', false)).toBe(true);
    expect(isAllowedTarget('private', false)).toBe(false);
    expect(isAllowedTarget('loopback', false)).toBe(false);
    expect(isAllowedTarget('private', true)).toBe(true);
    expect(isAllowedTarget('loopback', true)).toBe(true);
    expect(isAllowedTarget('reserved', true)).toBe(false);
  });

  it('parses to canonical text (RFC 5952 for IPv6)', () => {
    expect(parseAddress('2001:0DB8:0000:0000:0000:0000:0000:0001')).toMatchObject({
      family: 6,
      canonical: '2001:db8::1',
    });
    expect(parseAddress('2606:4700:0:0:1:0:0:1')?.canonical).toBe('2606:4700::1:0:0:1');
    expect(parseAddress('::FFFF:8.8.8.8')?.canonical).toBe('::ffff:8.8.8.8');
    expect(parseAddress('8.8.4.4')).toMatchObject({ family: 4, canonical: '8.8.4.4' });
  });
});
