import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig as loadKernelConfig } from '../kernel/config/load-config.ts';
import type { Env } from '../kernel/config/env-reader.ts';
import { dnsConfig, MAX_DNS_WORKERS } from '../modules/dns/index.ts';
import { loadBalancingConfig } from '../modules/load-balancing/index.ts';
import { CONFIG_SECTIONS } from './platform-modules.ts';

/** The whole configuration as `npm start` reads it: the kernel's settings and every module's. */
function loadConfig(env: Env) {
  const config = loadKernelConfig(env, CONFIG_SECTIONS);
  return {
    ...config,
    ...config.section(dnsConfig),
    ...config.section(loadBalancingConfig),
    frozen:
      Object.isFrozen(config) &&
      Object.isFrozen(config.section(dnsConfig)) &&
      Object.isFrozen(config.section(loadBalancingConfig)),
  };
}

/** The problems loadConfig reports for `env` (none: []). */
function problems(env: Env): readonly string[] {
  try {
    loadConfig(env);
    return [];
  } catch (e) {
    return (e as ConfigError).problems;
  }
}

describe('configuration', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      role: 'all',
      apiHost: '127.0.0.1',
      apiPort: 8080,
      dnsPort: 5300,
      databaseUrl: null,
      redisUrl: null,
      pop: 'FRA',
      nameservers: ['ns1.example.net', 'ns2.example.net'],
      logLevel: 'info',
      rrlRate: 20,
      healthAllowPrivateTargets: false,
      healthCheckIntervalS: 60,
    });
    expect(config.frozen).toBe(true);
  });

  it('reports every bad value at once, one line each', () => {
    let error: unknown;
    try {
      loadConfig({
        API_PORT: '99999',
        DNS_HOST: 'not-an-ip',
        DATABASE_URL: 'mysql://x',
        REDIS_URL: '::::',
        POP: 'XXX',
        NAMESERVERS: 'ns1.example.net,bad_name!',
        LOG_LEVEL: 'loud',
        ROLE: 'everything',
        RRL_EXEMPT: '10.0.0.0/99',
        HEALTH_ALLOW_PRIVATE_TARGETS: 'perhaps',
        HEALTH_CHECK_INTERVAL_S: '0',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(11);
    for (const name of [
      'API_PORT',
      'DNS_HOST',
      'DATABASE_URL',
      'REDIS_URL',
      'POP',
      'NAMESERVERS',
      'LOG_LEVEL',
      'ROLE',
      'HEALTH_CHECK_INTERVAL_S',
    ]) {
      expect(problems.some((p) => p.startsWith(name))).toBe(true);
    }
  });

  it('reads DEPLOYMENT_POPS beside POP, and the DNSSEC rollover settings', () => {
    expect([...loadConfig({ DEPLOYMENT_POPS: 'ams, iad' }).deploymentPops]).toEqual(['FRA', 'AMS', 'IAD']);
    expect(loadConfig({}).dnssecKskRollDays).toBe(365);
    expect(loadConfig({ DNSSEC_PARENT_RESOLVER: '[::1]:5353' }).dnssecParentResolver).toEqual({
      host: '::1',
      port: 5353,
    });
    expect(loadConfig({ DNSSEC_PARENT_RESOLVER: '192.0.2.53' }).dnssecParentResolver).toEqual({
      host: '192.0.2.53',
      port: 53,
    });
    expect(problems({ DEPLOYMENT_POPS: 'AMS,NOPE' })).toEqual([
      'DEPLOYMENT_POPS: "NOPE" is no known location code',
    ]);
    expect(problems({ DNSSEC_PARENT_RESOLVER: 'resolver.example:53' })).toEqual([
      'DNSSEC_PARENT_RESOLVER must be an IP address with an optional port (127.0.0.1:53, [::1]:53)',
    ]);
  });

  it('reads BUS_PREFIX: empty by default, refused with characters Redis keys should not carry', () => {
    expect(loadConfig({}).busPrefix).toBe('');
    expect(loadConfig({ BUS_PREFIX: 'eu-1:' }).busPrefix).toBe('eu-1:');
    expect(problems({ BUS_PREFIX: 'a b' })).toEqual([
      'BUS_PREFIX must be at most 64 letters, digits, ":", "_", "." or "-", got "a b"',
    ]);
  });

  it('reads the health decision settings: quorum, fall, rise, source addresses', () => {
    expect(loadConfig({}).healthPolicy).toEqual({ quorum: 'majority', fall: 1, rise: 1 });
    expect(loadConfig({ HEALTH_QUORUM: '2', HEALTH_FALL: '1', HEALTH_RISE: '3' }).healthPolicy).toEqual({
      quorum: 2,
      fall: 1,
      rise: 3,
    });
    expect(loadConfig({ HEALTH_SOURCE_ADDRESSES: '192.0.2.7, 2001:db8::7' }).healthSourceAddresses).toEqual([
      '192.0.2.7',
      '2001:db8::7',
    ]);
    expect(problems({ HEALTH_QUORUM: 'most' })).toEqual([
      'HEALTH_QUORUM must be "majority" or a number of PoPs from 1 to 100, got "most"',
    ]);
    expect(problems({ HEALTH_QUORUM: '0' })).toHaveLength(1);
    expect(problems({ HEALTH_FALL: '0' })).toHaveLength(1);
    expect(problems({ HEALTH_SOURCE_ADDRESSES: 'checker.example' })).toEqual([
      'HEALTH_SOURCE_ADDRESSES: "checker.example" is no IP address',
    ]);
    expect(problems({ HEALTH_SOURCE_ADDRESSES: '192.0.2.7,192.0.2.8' })).toEqual([
      'HEALTH_SOURCE_ADDRESSES takes at most one IPv4 and one IPv6 address',
    ]);
  });

  it('reads DNS_WORKERS: auto by default, a count (0 = in-process), one problem for a bad value', () => {
    expect(loadConfig({}).dnsWorkers).toBe('auto');
    expect(loadConfig({ DNS_WORKERS: 'AUTO' }).dnsWorkers).toBe('auto');
    expect(loadConfig({ DNS_WORKERS: '0' }).dnsWorkers).toBe(0);
    expect(loadConfig({ DNS_WORKERS: ' 4 ' }).dnsWorkers).toBe(4);
    expect(loadConfig({ DNS_WORKERS: String(MAX_DNS_WORKERS) }).dnsWorkers).toBe(MAX_DNS_WORKERS);
    for (const bad of ['-1', '2.5', 'many', String(MAX_DNS_WORKERS + 1)]) {
      let error: unknown;
      try {
        loadConfig({ DNS_WORKERS: bad });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([
        `DNS_WORKERS must be "auto" or an integer from 0 to ${MAX_DNS_WORKERS}, got "${bad}"`,
      ]);
    }
  });

  it('normalises name servers', () => {
    expect(loadConfig({ NAMESERVERS: ' NS1.Example.COM. , ns2.example.com' }).nameservers).toEqual([
      'ns1.example.com',
      'ns2.example.com',
    ]);
  });
});
