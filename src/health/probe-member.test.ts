import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../testing/free-port.ts';
import { ManualClock } from '../testing/manual-clock.ts';
import {
  startHangingServer,
  startSwitchableServer,
  startTcpListener,
  type SwitchableHttpServer,
} from '../testing/probe-target-servers.ts';
import { selfSignedCert } from '../testing/self-signed-cert.ts';
import type { HealthTarget } from './health-target.ts';
import { createMemberProber } from './probe-member.ts';
import { FORBIDDEN_TARGET_TEXT } from './target-guard.ts';

const clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 0, 0));
const allowAll = () => true;
const probe = createMemberProber({ guard: allowAll, clock });

function target(over: Partial<HealthTarget>): HealthTarget {
  return {
    memberId: 1,
    zoneId: 1,
    poolId: 1,
    address: '127.0.0.1',
    mode: 'http',
    path: '/',
    port: 80,
    timeoutS: 5,
    ...over,
  };
}

describe('health probes against real servers on 127.0.0.1', () => {
  let http: SwitchableHttpServer;
  let https: SwitchableHttpServer;
  let hanging: Awaited<ReturnType<typeof startHangingServer>>;
  let tcp: Awaited<ReturnType<typeof startTcpListener>>;
  let closedPort: number;

  beforeAll(async () => {
    const tls = selfSignedCert();
    [http, https, hanging, tcp, closedPort] = await Promise.all([
      startSwitchableServer(200),
      startSwitchableServer(200, tls),
      startHangingServer(),
      startTcpListener(),
      freePort(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([http.close(), https.close(), hanging.close(), tcp.close()]);
  });

  it('http: a 2xx is healthy, a 503 is unhealthy with the status text, and back', async () => {
    const t = target({ port: http.port, path: '/healthz' });
    const ok = await probe(t);
    expect(ok).toMatchObject({ status: 'healthy', error: null, checkedAt: clock.now() });
    expect(ok.latencyMs).toBeGreaterThanOrEqual(0);
    expect(http.requests.at(-1)).toMatchObject({ method: 'GET', url: '/healthz', host: '127.0.0.1' });

    http.status = 503;
    expect(await probe(t)).toMatchObject({ status: 'unhealthy', error: 'HTTP 503 Service Unavailable' });
    http.status = 204;
    expect(await probe(t)).toMatchObject({ status: 'healthy', error: null });
    http.status = 200;
  });

  it('http: redirects are not followed and count as failures', async () => {
    http.status = 301;
    const before = http.requests.length;
    expect(await probe(target({ port: http.port }))).toMatchObject({
      status: 'unhealthy',
      error: 'HTTP 301 Moved Permanently',
    });
    expect(http.requests.length).toBe(before + 1);
    http.status = 200;
  });

  it('http: a server that never answers fails with a timeout after health_timeout_s', async () => {
    const started = Date.now();
    const r = await probe(target({ port: hanging.port, timeoutS: 1 }));
    expect(r).toMatchObject({ status: 'unhealthy', error: 'timeout after 1 s' });
    expect(Date.now() - started).toBeLessThan(2500);
    expect(r.latencyMs).toBeGreaterThanOrEqual(900);
  });

  it('http and tcp: a closed port is connection refused', async () => {
    expect(await probe(target({ port: closedPort }))).toMatchObject({
      status: 'unhealthy',
      error: 'connection refused',
    });
    expect(await probe(target({ mode: 'tcp', port: closedPort }))).toMatchObject({
      status: 'unhealthy',
      error: 'connection refused',
    });
  });

  it('https: a self-signed certificate is accepted (not verified)', async () => {
    const t = target({ mode: 'https', port: https.port, path: '/status' });
    expect(await probe(t)).toMatchObject({ status: 'healthy', error: null });
    expect(https.requests.at(-1)?.url).toBe('/status');
    https.status = 500;
    expect(await probe(t)).toMatchObject({ status: 'unhealthy', error: 'HTTP 500 Internal Server Error' });
    https.status = 200;
  });

  it('https: a failed handshake is a failure', async () => {
    // A plain-HTTP server does not speak TLS: the handshake fails.
    const r = await probe(target({ mode: 'https', port: http.port }));
    expect(r.status).toBe('unhealthy');
    expect(r.error).toBe('TLS handshake failed: wrong version number');
    // A TCP listener that closes at once: the handshake cannot complete.
    const r2 = await probe(target({ mode: 'https', port: tcp.port }));
    expect(r2.status).toBe('unhealthy');
    expect(r2.error).toBe('TLS handshake failed: connection closed by peer');
  });

  it('https: a TLS server that never finishes the handshake times out', async () => {
    const r = await probe(target({ mode: 'https', port: hanging.port, timeoutS: 1 }));
    expect(r).toMatchObject({ status: 'unhealthy', error: 'timeout after 1 s' });
  });

  it('tcp: a completed connect is healthy; a hanging-but-accepting server too', async () => {
    const before = tcp.connections;
    expect(await probe(target({ mode: 'tcp', port: tcp.port }))).toMatchObject({
      status: 'healthy',
      error: null,
    });
    expect(await probe(target({ mode: 'tcp', port: hanging.port }))).toMatchObject({ status: 'healthy' });
    await expect.poll(() => tcp.connections).toBe(before + 1);
  });

  it('refuses private or reserved targets at connect time unless allowed, without sending anything', async () => {
    const production = createMemberProber({ guard: () => false, clock });
    const before = http.requests.length;
    for (const mode of ['http', 'https', 'tcp'] as const) {
      expect(await production(target({ mode, port: http.port }))).toEqual({
        status: 'unhealthy',
        error: FORBIDDEN_TARGET_TEXT,
        latencyMs: null,
        checkedAt: clock.now(),
      });
    }
    expect(http.requests.length).toBe(before);
  });
});
