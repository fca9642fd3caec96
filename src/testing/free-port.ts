/**
 * Test helper: a port that is free for both TCP and UDP on `host` at the time of the call
 * (the OS picks it; we then check UDP). Inherently racy against other processes; callers that
 * can bind port 0 themselves should.
 */
import dgram from 'node:dgram';
import net from 'node:net';

export const MAX_FREE_PORT_ATTEMPTS = 50;

function tcpPort(host: string): Promise<{ port: number; server: net.Server }> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen({ host, port: 0 }, () => {
      const a = server.address();
      resolve({ port: typeof a === 'object' && a !== null ? a.port : 0, server });
    });
  });
}

function udpFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = dgram.createSocket(net.isIPv6(host) ? 'udp6' : 'udp4');
    s.once('error', () => {
      s.close();
      resolve(false);
    });
    s.bind({ port, address: host }, () => s.close(() => resolve(true)));
  });
}

export async function freePort(host = '127.0.0.1'): Promise<number> {
  for (let i = 0; i < MAX_FREE_PORT_ATTEMPTS; i++) {
    const { port, server } = await tcpPort(host);
    const ok = await udpFree(host, port);
    await new Promise<void>((r) => server.close(() => r()));
    if (ok) return port;
  }
  throw new Error('no port free for both TCP and UDP');
}

/**
 * `count` distinct free ports: the OS may hand the same ephemeral port to two calls in a row once
 * the first probe socket is closed, so repeated freePort() calls alone can collide.
 */
export async function freePorts(count: number, host = '127.0.0.1'): Promise<number[]> {
  const ports = new Set<number>();
  for (let i = 0; ports.size < count; i++) {
    if (i >= MAX_FREE_PORT_ATTEMPTS * count) throw new Error(`no ${count} distinct free ports`);
    ports.add(await freePort(host));
  }
  return [...ports];
}
