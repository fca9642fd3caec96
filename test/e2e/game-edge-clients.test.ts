/**
 * The game edge with real Minecraft Java software on both sides: minecraft-protocol's server as the
 * upstream and its client as the player (status ping with the route's overrides, a login that
 * reaches the play state), minecraft-server-util's status and legacy status (also while the
 * upstream is down: the last real status with offline_motd, the ping still answered), the
 * unknown-address answers, and Debian's haproxy as the independent reader of the PROXY v2 header
 * the edge writes for a route with proxy_protocol.
 */
import { once, type EventEmitter } from 'node:events';
import { connect, createServer, type Server as NetServer, type Socket } from 'node:net';
import mcData from 'minecraft-data';
import mc, { type Client, type NewPingResult, type PingOptions, type ServerClient } from 'minecraft-protocol';
import { status, statusLegacy } from 'minecraft-server-util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseProxyV2, RouteTable, type EdgeRoute, type EdgeServer } from '../../src/edge/index.ts';
import { eventually } from '../../src/testing/eventually.ts';
import { startHaproxyTcp, type HaproxyTcp } from '../../src/testing/haproxy-tcp.ts';
import { edgeRoute, startLocalEdge } from '../../src/testing/edge-fixture.ts';

const route = (id: number, port: number, over: Partial<EdgeRoute> = {}): EdgeRoute =>
  edgeRoute(id, port, { statusCacheTtlSeconds: 5, ...over });

const VERSION = '1.21.4';
const PROTOCOL = mcData(VERSION).version.version;
const FAVICON = `data:image/png;base64,${Buffer.from('edge icon').toString('base64')}`;

interface McUpstream {
  readonly server: mc.Server;
  readonly port: number;
  /** Usernames seen by the server's 'login' event, and the host each handshake carried. */
  readonly logins: { username: string; host: string }[];
  close(): Promise<void>;
}

/** minecraft-protocol's server, offline mode: players who finish configuration get the play login packet. */
async function mcUpstream(motd: string): Promise<McUpstream> {
  const server = mc.createServer({
    'online-mode': false,
    host: '127.0.0.1',
    port: 0,
    version: VERSION,
    motd,
    maxPlayers: 20,
    hideErrors: true,
  });
  await once(server, 'listening');
  const logins: McUpstream['logins'] = [];
  // Typed by the library as returning a promise: listened to as the EventEmitter it is.
  (server as EventEmitter).on('login', (c: ServerClient & { serverHost: string }) => {
    logins.push({ username: c.username, host: c.serverHost });
  });
  server.on('playerJoin', (c: ServerClient) =>
    c.write('login', { ...(mcData(VERSION).loginPacket as object), entityId: 1 }),
  );
  const port = (server as unknown as { socketServer: NetServer }).socketServer.address() as { port: number };
  return {
    server,
    port: port.port,
    logins,
    close: async () => {
      const socketServer = (server as unknown as { socketServer: NetServer }).socketServer;
      const closed = once(socketServer, 'close');
      server.close();
      await closed;
    },
  };
}

/** minecraft-protocol connects to the edge while its handshake names `host` (as a player's client would after DNS). */
const via = (edge: EdgeServer) => (client: Client) => client.setSocket(connect(edge.port, '127.0.0.1'));

function ping(edge: EdgeServer, host: string): Promise<NewPingResult> {
  const options = { host, port: 25565, version: VERSION, connect: via(edge) } as PingOptions;
  return mc.ping(options) as Promise<NewPingResult>;
}

/** A player logging in through the edge; resolves with the play state's login packet or the disconnect reason. */
function join(
  edge: EdgeServer,
  host: string,
  username: string,
): Promise<{ play: boolean; reason: string; client: Client }> {
  const client = mc.createClient({
    host,
    port: 25565,
    username,
    auth: 'offline',
    version: VERSION,
    hideErrors: true,
    connect: via(edge),
  });
  return new Promise((resolve, reject) => {
    client.once('login', () => resolve({ play: true, reason: '', client }));
    client.once('disconnect', (p: { reason: string }) => resolve({ play: false, reason: p.reason, client }));
    client.once('error', reject);
  });
}

describe('game edge with minecraft-protocol and minecraft-server-util', () => {
  let playUp: McUpstream;
  let listUp: McUpstream;
  let edge: EdgeServer;
  let clock = Date.now();

  beforeAll(async () => {
    playUp = await mcUpstream('Play upstream');
    listUp = await mcUpstream('List upstream');
    edge = await startLocalEdge({ now: () => clock });
    edge.setRoutes(
      new RouteTable([
        {
          route: route(1, playUp.port, {
            onlineMotd: 'Welcome through the edge',
            versionName: 'Edge 1.21',
            favicon: FAVICON,
          }),
          names: { exact: ['play.example.test'], wildcard: ['games.example.test'] },
        },
        // minecraft-server-util connects to the address it names: the route is the edge's own address.
        {
          route: route(2, listUp.port, { offlineMotd: 'Back soon' }),
          names: { exact: ['127.0.0.1'], wildcard: [] },
        },
      ]),
    );
  });
  afterAll(async () => {
    await edge?.close();
    await playUp?.close();
    await listUp?.close();
  });

  it('answers minecraft-protocol’s ping with the upstream’s status under the route’s overrides', async () => {
    const answer = await ping(edge, 'play.example.test');
    expect(answer.description).toEqual({ text: 'Welcome through the edge' });
    expect(answer.version).toEqual({ name: 'Edge 1.21', protocol: PROTOCOL });
    expect(answer.players).toMatchObject({ max: 20, online: 0 });
    expect(answer.favicon).toBe(FAVICON);
    expect(answer.latency).toBeGreaterThanOrEqual(0);
  });

  it('takes a minecraft-protocol player to the play state: the upstream’s login event sees the name', async () => {
    const { play, client } = await join(edge, 'lobby.games.example.test', 'Steve');
    expect(play).toBe(true);
    expect(playUp.logins).toContainEqual({ username: 'Steve', host: 'lobby.games.example.test' });
    client.end('done');
    expect(edge.counters.connections.get('routed')).toBeGreaterThanOrEqual(1);
  });

  it('names an unknown address in the status and refuses the login with a disconnect', async () => {
    const answer = await ping(edge, 'nope.example.test');
    expect(answer.description).toEqual({ text: 'Unknown address' });
    expect(answer.version.protocol).toBe(PROTOCOL);
    const { play, reason } = await join(edge, 'nope.example.test', 'Alex');
    expect(play).toBe(false);
    expect(JSON.parse(reason)).toEqual({ text: 'Unknown address' });
    expect(playUp.logins.map((l) => l.username)).not.toContain('Alex');
  });

  it('answers minecraft-server-util’s status and its legacy status (protocol 127)', async () => {
    const s = await status('127.0.0.1', edge.port, { enableSRV: false, timeout: 3_000 });
    expect(s.motd.clean).toBe('List upstream');
    expect(s.version.name).toBe(VERSION);
    expect(s.players).toMatchObject({ max: 20, online: 0 });
    expect(s.roundTripLatency).toBeGreaterThanOrEqual(0);
    // The 1.4–1.5 form it sends (0xFE 0x01) carries no address: no route can be told, the answer says so.
    const legacy = await statusLegacy('127.0.0.1', edge.port, { enableSRV: false, timeout: 3_000 });
    expect(legacy.version).toEqual({ name: 'unknown', protocol: 127 });
    expect(legacy.motd.clean).toBe('Unknown address');
    expect(legacy.players).toEqual({ online: 0, max: 0 });
  });

  it('serves the last real status with offline_motd while the upstream is down, ping answered', async () => {
    await status('127.0.0.1', edge.port, { enableSRV: false, timeout: 3_000 });
    await listUp.close();
    clock += 6_000; // past the route's 5 s: the upstream is asked again and cannot be reached
    const staleBefore = edge.counters.statusCache.stale;
    const s = await status('127.0.0.1', edge.port, { enableSRV: false, timeout: 3_000 });
    expect(s.motd.clean).toBe('Back soon');
    expect(s.version.name).toBe(VERSION);
    expect(s.players).toMatchObject({ max: 20 });
    expect(typeof s.roundTripLatency).toBe('number');
    expect(edge.counters.statusCache.stale).toBe(staleBefore + 1);
  });
});

/** The final server behind haproxy: reads haproxy's PROXY v2 header with our parser, then pipes to minecraft-protocol. */
async function proxyReader(target: number): Promise<{
  server: NetServer;
  port: number;
  seen: { sourceAddress: string; sourcePort: number }[];
}> {
  const seen: { sourceAddress: string; sourcePort: number }[] = [];
  const server = createServer((s: Socket) => {
    let buf = Buffer.alloc(0);
    s.on('error', () => s.destroy());
    const onData = (chunk: Buffer): void => {
      buf = Buffer.concat([buf, chunk]);
      const parsed = parseProxyV2(buf);
      if (parsed === 'more') return;
      s.off('data', onData);
      if (parsed === 'invalid' || parsed.addresses === null) return void s.destroy();
      seen.push({ sourceAddress: parsed.addresses.sourceAddress, sourcePort: parsed.addresses.sourcePort });
      const up = connect(target, '127.0.0.1');
      up.on('error', () => s.destroy());
      s.on('close', () => up.destroy());
      up.on('close', () => s.destroy());
      up.write(buf.subarray(parsed.length));
      s.pipe(up);
      up.pipe(s);
    };
    s.on('data', onData);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as { port: number }).port, seen };
}

describe('game edge PROXY v2 read by haproxy', () => {
  let up: McUpstream;
  let reader: Awaited<ReturnType<typeof proxyReader>>;
  let haproxy: HaproxyTcp;
  let edge: EdgeServer;

  beforeAll(async () => {
    up = await mcUpstream('Behind haproxy');
    reader = await proxyReader(up.port);
    // A missing binary fails here (CI installs the apt package haproxy).
    haproxy = await startHaproxyTcp({
      target: { host: '127.0.0.1', port: reader.port },
      acceptProxy: true,
      sendProxyV2: true,
    });
    edge = await startLocalEdge({ upstreamTimeoutMs: 2_000 });
    edge.setRoutes(
      new RouteTable([
        {
          route: route(7, haproxy.port, { proxyProtocol: true }),
          names: { exact: ['pp.example.test'], wildcard: [] },
        },
      ]),
    );
  });
  afterAll(async () => {
    await edge?.close();
    await haproxy?.stop();
    reader?.server.close();
    await up?.close();
  });

  it('haproxy reads the player’s own address and port from the edge’s header', async () => {
    const { play, client } = await join(edge, 'pp.example.test', 'Proxied');
    expect(play).toBe(true);
    const socket = (client as unknown as { socket: Socket }).socket;
    const own = { sourceAddress: socket.localAddress!, sourcePort: socket.localPort! };
    expect(up.logins).toContainEqual({ username: 'Proxied', host: 'pp.example.test' });
    // What haproxy sends on is what it read: the player's socket, not the edge's outgoing one.
    expect(reader.seen).toContainEqual(own);
    client.end('done');
    // haproxy logs a TCP connection when it ends.
    await eventually(async () =>
      expect(haproxy.log()).toContain(`client=${own.sourceAddress}:${own.sourcePort} `),
    );
  });
});

describe('game edge behind haproxy as a trusted TCP balancer', () => {
  let up: McUpstream;
  let edge: EdgeServer;
  let balancer: HaproxyTcp;

  beforeAll(async () => {
    up = await mcUpstream('Behind the balancer');
    edge = await startLocalEdge({
      upstreamTimeoutMs: 2_000,
      trustedProxy: (address) => address === '127.0.0.1',
    });
    edge.setRoutes(
      new RouteTable([
        { route: route(8, up.port, { realIp: true }), names: { exact: ['lb.example.test'], wildcard: [] } },
      ]),
    );
    balancer = await startHaproxyTcp({ target: { host: '127.0.0.1', port: edge.port }, sendProxyV2: true });
  });
  afterAll(async () => {
    await balancer?.stop();
    await edge?.close();
    await up?.close();
  });

  it('takes the player’s address from the balancer’s PROXY v2 header (real_ip shows its port, not haproxy’s)', async () => {
    const client = mc.createClient({
      host: 'lb.example.test',
      port: 25565,
      username: 'Balanced',
      auth: 'offline',
      version: VERSION,
      hideErrors: true,
      connect: (c: Client) => c.setSocket(connect(balancer.port, '127.0.0.1')),
    });
    await once(client, 'login');
    const socket = (client as unknown as { socket: Socket }).socket;
    const login = up.logins.find((l) => l.username === 'Balanced');
    expect(login?.host).toMatch(
      new RegExp(`^lb\\.example\\.test///127\\.0\\.0\\.1:${socket.localPort}///\\d+$`),
    );
    client.end('done');
  });
});
