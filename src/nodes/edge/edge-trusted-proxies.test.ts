/**
 * EDGE_TRUSTED_PROXIES on a running node: a connection from a trusted load balancer is read after
 * its PROXY v2 header (and closed without one); from any other address a header is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proxyV2Header } from '../../edge/index.ts';
import { loadConfig } from '../../kernel/config/load-config.ts';
import { askStatus, statusText } from '../../testing/minecraft-status.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { edgeConfig } from './edge-config.ts';

const header = proxyV2Header({
  sourceAddress: '203.0.113.7',
  sourcePort: 50_000,
  destinationAddress: '198.51.100.1',
  destinationPort: 25565,
});

describe('edge node behind a load balancer', () => {
  let trusting: TestApp;
  let direct: TestApp;
  beforeAll(async () => {
    trusting = await startTestApp({
      env: { EDGE_TRUSTED_PROXIES: '10.0.0.0/8,127.0.0.0/8', EDGE_UNKNOWN_TEXT: 'nothing here' },
    });
    direct = await startTestApp({ env: { EDGE_UNKNOWN_TEXT: 'nothing here' } });
  }, 60_000);
  afterAll(async () => {
    await trusting?.close();
    await direct?.close();
  });

  it('reads a trusted balancer’s connection after its PROXY v2 header, and closes one without it', async () => {
    const port = trusting.node.edge!.port;
    expect(statusText(await askStatus(port, 'x.play.localhost', { before: header }))).toBe('nothing here');
    await expect(askStatus(port, 'x.play.localhost')).rejects.toThrow(/closed without a status/);
  });

  it('refuses a PROXY v2 header from an address it does not trust', async () => {
    const port = direct.node.edge!.port;
    await expect(askStatus(port, 'x.play.localhost', { before: header })).rejects.toThrow(
      /closed without a status/,
    );
    expect(statusText(await askStatus(port, 'x.play.localhost'))).toBe('nothing here');
  });

  it('takes the defaults, and stops at start on an entry that is not an address or range', () => {
    expect(loadConfig({}, [edgeConfig]).section(edgeConfig)).toEqual({
      edgeHost: '127.0.0.1',
      edgePort: 25565,
      idleTimeoutS: 300,
      connRate: 5,
      connBurst: 10,
      maxConnsPerIp: 32,
      trustedProxies: [],
      unknownText: 'Unknown server address',
      upstreamTimeoutMs: 5000,
      native: true,
    });
    expect(loadConfig({ EDGE_NATIVE: 'false' }, [edgeConfig]).section(edgeConfig).native).toBe(false);
    expect(() => loadConfig({ EDGE_TRUSTED_PROXIES: '10.0.0.0/33' }, [edgeConfig])).toThrow(
      /EDGE_TRUSTED_PROXIES/,
    );
  });
});
