import { beforeAll, describe, expect, it } from 'vitest';
import { countryCentroid } from '../../geo/geo-data.ts';
import { DEFAULT_GEOIP_DB, openIpLocator } from '../../geo/ip-locator.ts';
import type { IpLocator } from '../../geo/ip-locator.ts';
import { resolveClientContext } from './client-location.ts';
import { subnetKeyOfText } from './subnet-key.ts';

let locator: IpLocator;
beforeAll(async () => {
  locator = await openIpLocator(DEFAULT_GEOIP_DB);
});

describe('resolveClientContext', () => {
  it('pop strategy: the answering node location, whatever the client', () => {
    const c = resolveClientContext({ strategy: 'pop', pop: 'fra', clientIp: '8.8.8.8', locator });
    expect(c).toMatchObject({
      source: 'pop',
      pop: 'FRA',
      country: 'DE',
      region: 'WEU',
      latitude: 50.11,
      longitude: 8.68,
      clientIp: '8.8.8.8',
      subnetPrefix: 24,
      fromEcs: false,
    });
  });

  it('resolver_ip: the resolver address without ECS', () => {
    const c = resolveClientContext({ strategy: 'resolver_ip', pop: 'FRA', clientIp: '193.0.6.139', locator });
    expect(c).toMatchObject({
      source: 'resolver_ip',
      pop: 'FRA',
      country: 'NL',
      region: 'WEU',
      ...countryCentroid('NL'),
    });
  });

  it('resolver_ip: the ECS address wins, its prefix is the subnet', () => {
    const c = resolveClientContext({
      strategy: 'resolver_ip',
      pop: 'FRA',
      clientIp: '193.0.6.139',
      ecs: { address: '8.8.8.0', sourcePrefix: 24 },
      locator,
    });
    expect(c).toMatchObject({
      country: 'US',
      region: 'ENAM',
      clientIp: '8.8.8.0',
      subnetPrefix: 24,
      fromEcs: true,
    });
  });

  it('ECS with source prefix 0 counts as absent (RFC 7871 §7.1.2)', () => {
    const c = resolveClientContext({
      strategy: 'resolver_ip',
      pop: 'FRA',
      clientIp: '194.25.134.8',
      ecs: { address: '0.0.0.0', sourcePrefix: 0 },
      locator,
    });
    expect(c).toMatchObject({ country: 'DE', fromEcs: false, clientIp: '194.25.134.8' });
  });

  it('unknown address or no locator: no location', () => {
    for (const c of [
      resolveClientContext({ strategy: 'resolver_ip', pop: 'FRA', clientIp: '10.1.2.3', locator }),
      resolveClientContext({ strategy: 'resolver_ip', pop: 'FRA', clientIp: '8.8.8.8', locator: null }),
      resolveClientContext({ strategy: 'resolver_ip', pop: 'FRA', clientIp: null, locator }),
    ]) {
      expect(c).toMatchObject({ country: null, region: null, latitude: null, longitude: null });
    }
  });

  it('overrides: country derives region and centroid; region alone clears the rest', () => {
    const base = { strategy: 'pop' as const, pop: 'FRA', clientIp: null, locator };
    expect(resolveClientContext({ ...base, overrides: { country: 'jp' } })).toMatchObject({
      source: 'override',
      pop: 'FRA',
      country: 'JP',
      region: 'NEAS',
      ...countryCentroid('JP'),
    });
    expect(resolveClientContext({ ...base, overrides: { region: 'SAM' } })).toMatchObject({
      country: null,
      region: 'SAM',
      latitude: null,
    });
    expect(
      resolveClientContext({ ...base, overrides: { country: 'JP', latitude: 1, longitude: 2 } }),
    ).toMatchObject({
      country: 'JP',
      latitude: 1,
      longitude: 2,
    });
  });

  it('affinity keys: same /24 same key, IPv6 /56 by default', () => {
    const a = resolveClientContext({ strategy: 'pop', pop: 'FRA', clientIp: '192.0.2.1' });
    const b = resolveClientContext({ strategy: 'pop', pop: 'FRA', clientIp: '192.0.2.200' });
    const c = resolveClientContext({ strategy: 'pop', pop: 'FRA', clientIp: '192.0.3.1' });
    expect(a.affinityKey).toBe(b.affinityKey);
    expect(a.affinityKey).not.toBe(c.affinityKey);
    const v6 = resolveClientContext({ strategy: 'pop', pop: 'FRA', clientIp: '2001:db8:0:ff::1' });
    expect(v6.subnetPrefix).toBe(56);
    expect(v6.affinityKey).toBe(subnetKeyOfText('2001:db8:0:1::', 56));
    expect(v6.affinityKey).not.toBe(subnetKeyOfText('2001:db8:0:100::', 56));
  });
});

describe('resolveClientContext: dual-stack sockets', () => {
  it('treats IPv4-mapped IPv6 resolver addresses as IPv4', () => {
    const mapped = resolveClientContext({
      strategy: 'resolver_ip',
      pop: 'FRA',
      clientIp: '::ffff:8.8.8.8',
      locator,
    });
    expect(mapped).toMatchObject({ clientIp: '8.8.8.8', subnetPrefix: 24, country: 'US' });
    expect(mapped.affinityKey).toBe(subnetKeyOfText('8.8.8.0', 24));
  });
});
