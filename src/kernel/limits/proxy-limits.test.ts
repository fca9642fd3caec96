import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../testing/manual-clock.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';
import { PROXY_BLOCK_MS, PROXY_BURST, PROXY_MAX_CONNECTIONS } from './proxy-limits.ts';

async function inBatches(count: number, send: () => Promise<number>): Promise<number[]> {
  const out: number[] = [];
  for (let done = 0; done < count; done += 50) {
    out.push(...(await Promise.all(Array.from({ length: Math.min(50, count - done) }, send))));
  }
  return out;
}

/** A raw connection: resolves 'open' if it stays up for a while, 'closed' if the server drops it. */
function connect(port: number): Promise<{ socket: net.Socket; state: 'open' | 'closed' }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let settled = false;
    const done = (state: 'open' | 'closed') => {
      if (!settled) {
        settled = true;
        resolve({ socket, state });
      }
    };
    socket.once('close', () => done('closed'));
    socket.once('error', () => done('closed'));
    socket.once('connect', () => setTimeout(() => done('open'), 150));
  });
}

describe('proxy limits: per-IP token bucket, connections, the 5-minute block', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('lets a burst of 400 through, then answers 429 {"error":"Too many requests"} with Retry-After: 1', async () => {
    const clock = new ManualClock(Date.now());
    t = await startTestApp({ clock });
    const get = () => t!.request('GET', '/api/v1/locations').then((r) => r.status);
    const statuses = await inBatches(PROXY_BURST, get);
    expect(statuses.filter((s) => s === 429)).toHaveLength(0);
    const refused = await t.request('GET', '/api/v1/locations');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: 'Too many requests' });
    expect(refused.headers.get('retry-after')).toBe('1');
    // 200 a second refill the bucket.
    clock.advance(1000);
    expect((await inBatches(200, get)).every((s) => s === 200)).toBe(true);
    expect((await t.request('GET', '/api/v1/locations')).status).toBe(429);
  });

  it('after 8 refusals in a row blocks the address for 5 minutes: every request 429, new connections closed', async () => {
    const clock = new ManualClock(Date.now());
    t = await startTestApp({ clock });
    const get = () => t!.request('GET', '/api/v1/locations');
    await inBatches(PROXY_BURST, () => get().then((r) => r.status));
    for (let i = 0; i < 8; i++) expect((await get()).status).toBe(429);
    // Tokens come back, but the block holds.
    clock.advance(10_000);
    const blocked = await get();
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(280);
    const port = Number(new URL(t.url).port);
    expect((await connect(port)).state).toBe('closed');
    clock.advance(PROXY_BLOCK_MS);
    expect((await get()).status).toBe(200);
    const reopened = await connect(port);
    expect(reopened.state).toBe('open');
    reopened.socket.destroy();
  });

  it('keeps at most 128 open connections per address: the 129th is closed without an answer', async () => {
    t = await startTestApp();
    const port = Number(new URL(t.url).port);
    const open: net.Socket[] = [];
    try {
      // The test client's own pooled connection may already count: fill up to the limit.
      for (let batch = 0; batch < 4; batch++) {
        const opened = await Promise.all(
          Array.from({ length: PROXY_MAX_CONNECTIONS / 4 }, () => connect(port)),
        );
        for (const c of opened) if (c.state === 'open') open.push(c.socket);
      }
      for (let i = 0; i < 3; i++) {
        const c = await connect(port);
        if (c.state === 'closed') break;
        open.push(c.socket);
      }
      expect(open.length).toBeGreaterThanOrEqual(PROXY_MAX_CONNECTIONS - 2);
      expect(open.length).toBeLessThanOrEqual(PROXY_MAX_CONNECTIONS);
      const extra = await connect(port);
      expect(extra.state).toBe('closed');
      // Closing one lets the next in.
      open.pop()!.destroy();
      await new Promise((r) => setTimeout(r, 100));
      const next = await connect(port);
      expect(next.state).toBe('open');
      open.push(next.socket);
    } finally {
      for (const s of open) s.destroy();
    }
  });

  it('exempts LIMITS_EXEMPT addresses', async () => {
    const clock = new ManualClock(Date.now());
    t = await startTestApp({ clock, env: { LIMITS_EXEMPT: '127.0.0.0/8,::1' } });
    const statuses = await inBatches(PROXY_BURST + 100, () =>
      t!.request('GET', '/api/v1/locations').then((r) => r.status),
    );
    expect(statuses.every((s) => s === 200)).toBe(true);
  });
});
