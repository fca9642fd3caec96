/**
 * The game edge alone in its own process for bench/edge-suite.ts, so the load generator's CPU and
 * memory are not counted with it. Routes come as JSON in argv[2] (`[{ "name", "port" }]`, each an
 * upstream on 127.0.0.1, the status cached an hour); it answers `{ port }` once listening, and to
 * each IPC message `usage` its CPU time and RSS (`usage after gc`: after a full GC, run with --expose-gc).
 * With argv[3] `bare` it is no edge but the floor under one: a node:net server that answers any
 * first read with the status response and pong, written at once (what a connection costs Node).
 */
import { createServer } from 'node:net';
import { pong, RouteTable, startEdgeServer, statusResponse, type EdgeRoute } from '../src/edge/index.ts';
import { BENCH_STATUS } from './edge-load.ts';
import { edgeRoute } from '../src/testing/edge-fixture.ts';

const route = (id: number, port: number): EdgeRoute => edgeRoute(id, port, { statusCacheTtlSeconds: 3600 });

export interface EdgeChildUsage {
  /** User + system CPU seconds of this process so far. */
  readonly cpuSeconds: number;
  readonly rssBytes: number;
  readonly active: number;
}

const wanted = JSON.parse(process.argv[2] ?? '[]') as { name: string; port: number }[];

interface Serving {
  readonly port: number;
  readonly counters: { readonly active: number };
  close(): Promise<void>;
}

async function startBare(): Promise<Serving> {
  const answer = Buffer.concat([statusResponse(JSON.stringify(BENCH_STATUS)), pong(0n)]);
  const server = createServer((s) => {
    s.on('error', () => s.destroy());
    s.once('data', () => s.end(answer));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    port: (server.address() as { port: number }).port,
    counters: { active: 0 },
    close: () => new Promise((r) => server.close(() => r())),
  };
}

async function startEdge(): Promise<Serving> {
  const server = await startEdgeServer({
    host: '127.0.0.1',
    port: 0,
    unknownAddressText: 'Unknown address',
    idleTimeoutMs: 300_000,
    upstreamTimeoutMs: 5_000,
    trustedProxy: () => false,
    // The load comes from one address: the limits are out of the way (their cost stays in).
    limits: { rate: 1e9, burst: 1e9, maxPerAddress: 1e9 },
  });
  server.setRoutes(
    new RouteTable(
      wanted.map((w, i) => ({ route: route(i + 1, w.port), names: { exact: [w.name], wildcard: [] } })),
    ),
  );
  return server;
}

const edge = process.argv[3] === 'bare' ? await startBare() : await startEdge();

function usage(collect: boolean): EdgeChildUsage {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (collect && gc !== undefined) {
    gc();
    gc();
  }
  const cpu = process.cpuUsage();
  return {
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    rssBytes: process.memoryUsage.rss(),
    active: edge.counters.active,
  };
}

process.on('message', (m) => {
  if (m === 'usage' || m === 'usage after gc') process.send!(usage(m === 'usage after gc'));
  if (m === 'stop') void edge.close().then(() => process.exit(0));
});
process.on('disconnect', () => process.exit(0));
process.send!({ port: edge.port });
