/**
 * The instance list through our API against the provider's own list calls alone: the local
 * PVE-shaped server on the state engine with two nodes and 500 running VMs (250 each, clones of
 * the node's template), the product configured with that server and an
 * organization holding the 500 instances. In alternating rounds, `GET /orgs/{slug}/vps` (keep-alive
 * node:http) and the same node lists made by a PVE adapter of its own (`listVms` per node, in
 * parallel, as the module makes them). Each round's ratio is ours ÷ provider; the result is their
 * median (the target is 1.2 at most), with the provider calls the API made per listing (one per
 * node).
 */
import { Agent, request as httpRequest } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { PveProvider } from '../src/modules/compute/index.ts';
import { startLocalCluster } from '../src/testing/compute-fixture.ts';
import { ManualClock } from '../src/testing/manual-clock.ts';
import { createOrg } from '../src/testing/org-fixture.ts';
import { startTestApp } from '../src/testing/test-app.ts';
import { median } from './bench-stats.ts';

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

export async function runComputeListing(options: {
  rounds: number;
  quick: boolean;
}): Promise<ComputeListingResult> {
  const count = options.quick ? 100 : 500;
  const nodes = ['pve1', 'pve2'];
  const clock = new ManualClock(Date.UTC(2026, 10, 29, 12, 0, 0));
  const cluster = await startLocalCluster(clock, { nodes, secondNodeTemplates: true });
  const t = await startTestApp({ clock, env: cluster.env });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const settings = {
    url: cluster.pve.url,
    tokenId: cluster.pve.tokenId,
    tokenSecret: cluster.pve.tokenSecret,
    caFile: null,
    storage: null,
    backupStorage: 'local',
    isoStorage: 'local',
    nodes,
  };
  const lister = new PveProvider(settings);
  try {
    const { token } = await t.signUp();
    const org = await createOrg(t, token, 'bench');
    const db = t.node.runtime.database.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    // The VMs, half on each node, running (the cluster's seeding, as clones of the node's template);
    // the instances beside them.
    const made: { node: string; vmid: number }[] = [];
    for (const [i, node] of nodes.entries()) {
      const ids = await cluster.pve.cluster.seedVms({
        templateVmid: 9001 + 100 * i,
        count: count / nodes.length,
        firstVmid: 1000 + 1000 * i,
        running: true,
      });
      for (const vmid of ids) made.push({ node, vmid });
    }
    const now = new Date(clock.now());
    for (let i = 0; i < made.length; i += 100)
      await db
        .insertInto('compute_instances')
        .values(
          made.slice(i, i + 100).map(({ node, vmid }, j) => ({
            uuid: randomUUID(),
            service_id: 100_000 + i + j,
            user_id: 1,
            org_id: org.id,
            name: `vm${vmid}`,
            hostname: `vm${vmid}`,
            state: 'active',
            node,
            vmid,
            template_id: 1,
            template_name: 'Debian 12',
            vcpus: 1,
            memory_mb: 1024,
            disk_gb: 25,
            traffic_tb: 1,
            max_snapshots: 3,
            max_backups: 2,
            location: 'FRA',
            ipv4: null,
            ssh_keys: '',
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();

    const url = new URL(`${t.url}/api/v1/orgs/bench/vps`);
    const ours = async (): Promise<number> => {
      const started = performance.now();
      const res = await getJson(agent, url, token);
      const ms = performance.now() - started;
      const body = res.body as { total: number; items: { status: string }[] };
      if (res.status !== 200 || body.total !== count) throw new Error(`listing: ${res.status} ${body.total}`);
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
    // Warm both paths (connections, code).
    for (let i = 0; i < 3; i++) {
      await ours();
      await provider();
    }
    const before = cluster.pve.requests.length;
    await ours();
    const callsPerListing = cluster.pve.requests.length - before;
    const a: number[] = [];
    const b: number[] = [];
    const ratios: number[] = [];
    for (let r = 0; r < options.rounds; r++) {
      const x = await ours();
      const y = await provider();
      a.push(x);
      b.push(y);
      ratios.push(round2(x / y));
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
    };
  } finally {
    agent.destroy();
    await lister.close();
    await t.close();
    await cluster.close();
  }
}
