/**
 * The PVE-shaped server (state engine) alone in its own process for bench/compute-listing.ts, as a
 * real cluster is a machine of its own: its work (the node lists' JSON) is not counted on the
 * product's thread. argv[2]: `{ count, nodes, firstVmids }`; `count` running VMs are seeded, split
 * evenly, as clones of each node's template from the node's first vmid on. Answers
 * `{ url, tokenId, tokenSecret }` once listening, then to the IPC message `requests` the number of
 * requests it has served, and stops on `stop`.
 */
import { startLocalCluster } from '../src/testing/compute-fixture.ts';
import { ManualClock } from '../src/testing/manual-clock.ts';

export interface ComputePveChildReady {
  readonly url: string;
  readonly tokenId: string;
  readonly tokenSecret: string;
}

const { count, nodes, firstVmids } = JSON.parse(process.argv[2] ?? '{}') as {
  count: number;
  nodes: string[];
  firstVmids: number[];
};
const clock = new ManualClock(Date.UTC(2026, 10, 29, 12, 0, 0));
const cluster = await startLocalCluster(clock, { nodes, secondNodeTemplates: true });
for (const index of nodes.keys()) {
  await cluster.pve.cluster.seedVms({
    templateVmid: 9001 + 100 * index,
    count: count / nodes.length,
    firstVmid: firstVmids[index]!,
    running: true,
  });
}
const ready: ComputePveChildReady = {
  url: cluster.pve.url,
  tokenId: cluster.pve.tokenId,
  tokenSecret: cluster.pve.tokenSecret,
};
process.send!(ready);
process.on('message', (message) => {
  if (message === 'requests') process.send!({ requests: cluster.pve.requests.length });
  if (message === 'stop') void cluster.close().then(() => process.exit(0));
});
