/**
 * The least an API listing can do, for bench/compute-listing.ts: a bare node:http server in a
 * process of its own that, per request, makes the same node lists through the PVE adapter (one call
 * per node, in parallel), turns each VM into an item with the instance fields of our list, and
 * answers them as JSON. No authentication, no database, no framework: what is left is the work
 * every listing of live instances has on top of the provider's calls (an answer as large as the
 * lists, written, sent and parsed once more). argv[2]: `{ url, tokenId, tokenSecret, nodes }`;
 * answers `{ url }` once listening, stops on the IPC message `stop`.
 */
import { createServer } from 'node:http';
import { benchPveProvider, type BenchPveAccess } from './compute-bench-provider.ts';

export interface ComputeRelayChildReady {
  readonly url: string;
}

const access = JSON.parse(process.argv[2] ?? '{}') as BenchPveAccess;
const { nodes } = access;
const provider = benchPveProvider(access);

async function listing(): Promise<string> {
  const lists = await Promise.all(nodes.map((n) => provider.listVms(n)));
  const items: unknown[] = [];
  for (const [index, list] of lists.entries()) {
    for (const vm of list) {
      if (vm.template) continue;
      items.push({
        uuid: `00000000-0000-4000-8000-${String(vm.vmid).padStart(12, '0')}`,
        service_id: vm.vmid,
        name: vm.name,
        hostname: vm.name,
        status: vm.status,
        node: nodes[index],
        vmid: vm.vmid,
        template: { id: 1, name: 'Debian 12' },
        vcpus: 1,
        memory_mb: 1024,
        disk_gb: 25,
        ips: [{ address: '192.0.2.10', family: 4, gateway: '192.0.2.1', prefix: 24 }],
        location: 'fra1',
        created_at: '2026-11-29T12:00:00.000Z',
      });
    }
  }
  return JSON.stringify({ items, total: items.length });
}

const server = createServer((_request, response) => {
  listing().then(
    (body) => {
      response.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
      });
      response.end(body);
    },
    () => {
      response.writeHead(502).end();
    },
  );
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  const ready: ComputeRelayChildReady = { url: `http://127.0.0.1:${port}` };
  process.send!(ready);
});
process.on('message', (message) => {
  if (message === 'stop') void provider.close().then(() => process.exit(0));
});
