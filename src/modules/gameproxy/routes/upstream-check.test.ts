import { describe, expect, it } from 'vitest';
import { checkUpstreamHost, type HostLookup } from './upstream-check.ts';

/** Names as a zone would answer them, without the system resolver. */
const NAMES: Readonly<Record<string, string[]>> = {
  'mc.example.com': ['203.0.114.7', '2a01:4f8::7'],
  'lan.example.com': ['192.168.1.20'],
  'mixed.example.com': ['203.0.114.8', '10.0.0.8'],
  'meta.example.com': ['169.254.169.254'],
};
const lookup: HostLookup = async (name) => {
  const found = NAMES[name];
  if (found === undefined) throw Object.assign(new Error(`ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
  return found;
};

describe('upstream hosts', () => {
  it('takes a name that resolves to public addresses only, lower-cased and without the final dot', async () => {
    expect(await checkUpstreamHost('MC.Example.com.', false, lookup)).toEqual({ host: 'mc.example.com' });
  });

  it('refuses a name with any private, loopback or reserved address unless private ones are allowed', async () => {
    for (const name of ['lan.example.com', 'mixed.example.com', 'meta.example.com'])
      expect(await checkUpstreamHost(name, false, lookup), name).toEqual({
        refused: expect.stringContaining('resolves to a private or reserved address'),
      });
    expect(await checkUpstreamHost('lan.example.com', true, lookup)).toEqual({ host: 'lan.example.com' });
    expect(await checkUpstreamHost('mixed.example.com', true, lookup)).toEqual({ host: 'mixed.example.com' });
    expect(await checkUpstreamHost('meta.example.com', true, lookup)).toEqual({
      refused: expect.stringContaining('169.254.169.254'),
    });
  });

  it('judges IP literals by their own class, in canonical form', async () => {
    expect(await checkUpstreamHost('1.1.1.1', false, lookup)).toEqual({ host: '1.1.1.1' });
    expect(await checkUpstreamHost('[2A01:4F8:0::7]', false, lookup)).toEqual({ host: '2a01:4f8::7' });
    expect(await checkUpstreamHost('::1', false, lookup)).toEqual({ refused: '::1 is a loopback address' });
    expect(await checkUpstreamHost('::1', true, lookup)).toEqual({ host: '::1' });
    expect(await checkUpstreamHost('10.0.0.1', false, lookup)).toEqual({
      refused: '10.0.0.1 is a private address',
    });
    expect(await checkUpstreamHost('192.0.2.1', true, lookup)).toEqual({
      refused: '192.0.2.1 is a reserved address',
    });
    // A private address embedded in IPv6 is judged by the embedded address.
    expect(await checkUpstreamHost('::ffff:10.0.0.1', false, lookup)).toMatchObject({
      refused: expect.any(String),
    });
  });

  it('refuses what is no host name, and a name that does not resolve', async () => {
    for (const bad of ['not a host', 'a..b', '-x.example', 'x_y.example', 'a'.repeat(64) + '.example'])
      expect(await checkUpstreamHost(bad, true, lookup), bad).toEqual({
        refused: 'Not a host name or IP address',
      });
    expect(await checkUpstreamHost('gone.example.com', true, lookup)).toEqual({
      refused: 'gone.example.com does not resolve',
    });
  });
});
