import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_GEOIP_DB, openIpLocator } from '../../geo/ip-locator.ts';
import type { IpLocator } from '../../geo/ip-locator.ts';
import { createClientSubnet, ECS_FAMILY_IPV4, ECS_FAMILY_IPV6 } from '../wire/message/client-subnet.ts';
import type { ClientContext } from './client-location.ts';
import {
  clientSubnetText,
  resolveClientContext,
  resolveDnsClientContext,
  ReusableClientContext,
} from './client-location.ts';
import type { LocationStrategy } from './steering-config.ts';

let locator: IpLocator;
beforeAll(async () => {
  locator = await openIpLocator(DEFAULT_GEOIP_DB);
});

function plain(c: ClientContext): Record<string, unknown> {
  return {
    source: c.source,
    pop: c.pop,
    country: c.country,
    region: c.region,
    latitude: c.latitude,
    longitude: c.longitude,
    clientIp: c.clientIp,
    affinityKey: c.affinityKey,
    subnetPrefix: c.subnetPrefix,
    fromEcs: c.fromEcs,
  };
}

describe('resolveDnsClientContext', () => {
  const out = new ReusableClientContext();
  const cases: [number, number, number[]][] = [
    [ECS_FAMILY_IPV4, 24, [8, 8, 8]],
    [ECS_FAMILY_IPV4, 24, [193, 0, 6]],
    [ECS_FAMILY_IPV4, 20, [194, 25, 128]],
    [ECS_FAMILY_IPV4, 32, [10, 1, 2, 3]],
    [ECS_FAMILY_IPV4, 0, []],
    [ECS_FAMILY_IPV6, 56, [0x2a, 0x01, 0x04, 0xf8, 0, 0, 0]],
    [ECS_FAMILY_IPV6, 96, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff]],
  ];
  const strategies: LocationStrategy[] = ['pop', 'resolver_ip'];
  for (const strategy of strategies) {
    for (const [family, prefix, bytes] of cases) {
      for (const clientIp of ['212.27.48.10', '::ffff:8.8.4.4', '2001:4860::1', null]) {
        it(`${strategy} ECS ${family}/${prefix} ${bytes.join('.')} resolver ${clientIp}`, () => {
          const ecs = createClientSubnet();
          ecs.present = true;
          ecs.family = family;
          ecs.sourcePrefix = prefix;
          ecs.addressLength = bytes.length;
          ecs.address.set(bytes);
          const expected = resolveClientContext({
            strategy,
            pop: 'fra',
            clientIp,
            ecs: { address: clientSubnetText(ecs), sourcePrefix: prefix },
            locator,
          });
          const got = resolveDnsClientContext(out, strategy, 'fra', clientIp, ecs, locator);
          expect(plain(got)).toEqual(plain(expected));
          // Without the numeric lookup the locator's text lookup is used.
          const textOnly: IpLocator = { lookup: (ip) => locator.lookup(ip) };
          const again = resolveDnsClientContext(out, strategy, 'fra', clientIp, ecs, textOnly);
          expect(plain(again)).toEqual(plain(expected));
        });
      }
    }
  }

  it('without ECS uses the resolver address', () => {
    const ecs = createClientSubnet();
    const expected = resolveClientContext({
      strategy: 'resolver_ip',
      pop: 'FRA',
      clientIp: '8.8.8.8',
      locator,
    });
    const got = resolveDnsClientContext(out, 'resolver_ip', 'FRA', '8.8.8.8', ecs, locator);
    expect(plain(got)).toEqual(plain(expected));
    expect(got.country).toBe('US');
  });
});

describe('IpLocator.lookupIpv4', () => {
  it('matches the text lookup', () => {
    for (const ip of ['8.8.8.8', '193.0.6.139', '194.25.134.8', '10.0.0.1', '192.0.2.1', '0.0.0.0']) {
      const [a, b, c, d] = ip.split('.').map(Number) as [number, number, number, number];
      const n = ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
      expect(locator.lookupIpv4!(n), ip).toBe(locator.lookup(ip));
    }
  });
});
