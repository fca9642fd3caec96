import { describe, expect, it } from 'vitest';
import { RouteTable, type EdgeRoute } from './route-table.ts';
import { liveStatus, offlineStatus, unknownAddressStatus } from './status-answer.ts';

const route = (id: number, over: Partial<EdgeRoute> = {}): EdgeRoute => ({
  id,
  mode: 'proxy',
  upstream: { host: '127.0.0.1', port: 30000 + id },
  proxyProtocol: false,
  realIp: false,
  onlineMotd: null,
  offlineMotd: null,
  versionName: null,
  favicon: null,
  statusCacheTtlSeconds: 10,
  ...over,
});

describe('edge routes: the table', () => {
  const table = new RouteTable([
    { route: route(1), names: { exact: ['survival.play.example.net'], wildcard: [] } },
    { route: route(2), names: { exact: ['mc.customer.org'], wildcard: ['play.example.net'] } },
    { route: route(3), names: { exact: [], wildcard: ['eu.play.example.net'] } },
    // A name claimed twice goes to the lower id, whatever the order given.
    { route: route(5), names: { exact: ['dup.example.net'], wildcard: [] } },
    { route: route(4), names: { exact: ['dup.example.net'], wildcard: [] } },
  ]);

  it.each([
    ['survival.play.example.net', 1],
    ['mc.customer.org', 2],
    ['creative.play.example.net', 2],
    ['a.b.play.example.net', 2],
    ['lobby.eu.play.example.net', 3],
    ['dup.example.net', 4],
    ['play.example.net', null],
    ['example.net', null],
    ['other.org', null],
    ['', null],
  ])('%s → route %s', (host, id) => expect(table.find(host)?.id ?? null).toBe(id));

  it('counts its routes', () => expect(table.size).toBe(5));
});

describe('edge routes: status answers', () => {
  const upstream = {
    version: { name: 'Paper 1.21', protocol: 767 },
    players: { max: 20, online: 3 },
    description: { text: 'Hello' },
    enforcesSecureChat: true,
  };

  it('passes the upstream’s answer through, with the route’s overrides', () => {
    expect(liveStatus(upstream, route(1))).toEqual(upstream);
    expect(
      liveStatus(
        upstream,
        route(1, { onlineMotd: 'Welcome', versionName: 'Survival', favicon: 'data:image/png;base64,AA==' }),
      ),
    ).toEqual({
      ...upstream,
      description: { text: 'Welcome' },
      version: { name: 'Survival', protocol: 767 },
      favicon: 'data:image/png;base64,AA==',
    });
  });

  it('serves the last real answer with offline_motd while the upstream is down, or makes one up', () => {
    expect(offlineStatus(upstream, route(1, { offlineMotd: 'Back soon' }), 767)).toEqual({
      ...upstream,
      description: { text: 'Back soon' },
    });
    expect(offlineStatus(null, route(1), 765)).toEqual({
      version: { name: 'offline', protocol: 765 },
      players: { max: 0, online: 0 },
      description: { text: 'Server is offline' },
    });
    expect(unknownAddressStatus('Unknown address', 767)).toMatchObject({
      description: { text: 'Unknown address' },
    });
  });
});
