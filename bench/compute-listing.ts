/**
 * The instance list through our API against the provider's own list calls alone, each party in a
 * process of its own as in production: the PVE-shaped server on the state engine with two nodes and
 * 500 running VMs (250 each; bench/compute-pve-child.ts), the product configured with that server
 * and an organization holding the 500 instances (bench/compute-api-child.ts), and this process as
 * the client. In alternating rounds, `GET /orgs/{slug}/vps` (keep-alive node:http) and the same node
 * lists made by a PVE adapter of its own (`listVms` per node, in parallel, as the module makes
 * them). Each round's ratio is ours ÷ provider; the result is their median (the target is 1.2 at
 * most), with the provider calls the API made per listing (one per node). A third party in the
 * same rounds, a bare relay (bench/compute-relay-child.ts: the same node lists answered as our
 * list's items, with no authentication, database or framework), gives the floor of that ratio.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './bench-stats.ts';
import { benchPveProvider } from './compute-bench-provider.ts';
import type { ComputeApiChildReady } from './compute-api-child.ts';
import type { ComputePveChildReady } from './compute-pve-child.ts';
import type { ComputeRelayChildReady } from './compute-relay-child.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));

export interface ComputeListingResult {
  instances: number;
  nodes: number;
  rounds: number;
  /** Milliseconds per listing through the API (median, p90). */
  oursMedianMs: number;
  oursP90Ms: number;
  /** Milliseconds of the provider's list calls alone (median, p90). */
  providerMedianMs: number;
  providerP90Ms: number;
  /** Per round: ours ÷ provider. */
  ratios: number[];
  /** The median of the per-round ratios. */
  ratio: number;
  /** Provider calls the cluster saw per API listing (one per node). */
  callsPerListing: number;
  /** Milliseconds per listing through the bare relay (median), and its per-round ratios' median. */
  relayMedianMs: number;
  relayRatio: number;
}

const p90 = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)]!;
const round2 = (x: number): number => Math.round(x * 100) / 100;

function getJson(agent: Agent, url: URL, token: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        } catch (e) {
          reject(e instanceof Error ? e : new Error(String(e)));
        }
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

interface Child<T> {
  readonly ready: T;
  /** Sends `message` and answers the child's next message. */
  ask(message: string): Promise<unknown>;
  stop(): Promise<void>;
}

/** Runs `script` (a .ts file beside this one) under tsx with `arg`; answers once it sends its first message. */
async function startChild<T>(script: string, arg: unknown): Promise<Child<T>> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(HERE, script), JSON.stringify(arg)],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: { ...process.env, LOG_LEVEL: 'warn' } },
  );
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const ready = await new Promise<T>((resolve, reject) => {
    child.once('message', (m) => resolve(m as T));
    child.once('exit', (code) => reject(new Error(`${script} exited ${code}`)));
  });
  return {
    ready,
    ask: (message) =>
      new Promise((resolve) => {
        child.once('message', resolve);
        child.send(message);
      }),
    stop: async () => {
      child.send('stop');
      const timer = setTimeout(() => process.kill(child.pid!, 'SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export async function runComputeListing(options: {
  rounds: number;
  quick: boolean;
}): Promise<ComputeListingResult> {
  const count = options.quick ? 100 : 500;
  const nodes = ['pve1', 'pve2'];
  const firstVmids = [1000, 2000];
  const pve = await startChild<ComputePveChildReady>('compute-pve-child.ts', { count, nodes, firstVmids });
  const { url: pveUrl, tokenId, tokenSecret } = pve.ready;
  const env = { PVE_URL: pveUrl, PVE_TOKEN_ID: tokenId, PVE_TOKEN_SECRET: tokenSecret };
  const api = await startChild<ComputeApiChildReady>('compute-api-child.ts', {
    count,
    nodes,
    firstVmids,
    env,
  }).catch(async (error: unknown) => {
    await pve.stop();
    throw error;
  });
  const relay = await startChild<ComputeRelayChildReady>('compute-relay-child.ts', {
    url: pveUrl,
    tokenId,
    tokenSecret,
    nodes,
  }).catch(async (error: unknown) => {
    await api.stop();
    await pve.stop();
    throw error;
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const lister = benchPveProvider({ url: pveUrl, tokenId, tokenSecret, nodes });
  const served = async (): Promise<number> => ((await pve.ask('requests')) as { requests: number }).requests;
  try {
    const { url: apiUrl, token } = api.ready;
    const url = new URL(`${apiUrl}/api/v1/orgs/bench/vps`);
    const ours = async (): Promise<number> => {
      const started = performance.now();
      const res = await getJson(agent, url, token);
      const ms = performance.now() - started;
      const body = res.body as { total: number; items: { status: string }[] };
      if (res.status !== 200 || body.total !== count)
        throw new Error(`listing: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      return ms;
    };
    const provider = async (): Promise<number> => {
      const started = performance.now();
      const lists = await Promise.all(nodes.map((n) => lister.listVms(n)));
      const ms = performance.now() - started;
      if (lists.reduce((n, l) => n + l.filter((v) => !v.template).length, 0) !== count)
        throw new Error('provider listing: wrong count');
      return ms;
    };
    const relayUrl = new URL(`${relay.ready.url}/`);
    const bare = async (): Promise<number> => {
      const started = performance.now();
      const res = await getJson(agent, relayUrl, token);
      const ms = performance.now() - started;
      if (res.status !== 200 || (res.body as { total: number }).total !== count)
        throw new Error(`relay listing: ${res.status}`);
      return ms;
    };
    // Warm every path (connections, code).
    for (let i = 0; i < 5; i++) {
      await ours();
      await provider();
      await bare();
    }
    const before = await served();
    await ours();
    const callsPerListing = (await served()) - before;
    const a: number[] = [];
    const b: number[] = [];
    const c: number[] = [];
    const ratios: number[] = [];
    const relayRatios: number[] = [];
    for (let r = 0; r < options.rounds; r++) {
      const x = await ours();
      const y = await provider();
      const z = await bare();
      a.push(x);
      b.push(y);
      c.push(z);
      ratios.push(round2(x / y));
      relayRatios.push(round2(z / y));
    }
    return {
      instances: count,
      nodes: nodes.length,
      rounds: options.rounds,
      oursMedianMs: round2(median(a)),
      oursP90Ms: round2(p90(a)),
      providerMedianMs: round2(median(b)),
      providerP90Ms: round2(p90(b)),
      ratios,
      ratio: round2(median(ratios)),
      callsPerListing,
      relayMedianMs: round2(median(c)),
      relayRatio: round2(median(relayRatios)),
    };
  } finally {
    agent.destroy();
    await lister.close();
    await relay.stop();
    await api.stop();
    await pve.stop();
  }
}
