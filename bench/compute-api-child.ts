/**
 * The product alone in its own process for bench/compute-listing.ts, configured with the
 * PVE-shaped server of bench/compute-pve-child.ts (argv[2]: `{ count, nodes, firstVmids, env }`, `env` its
 * PVE_* settings): signs up, makes the organization `bench` and its `count` instances on the VMs
 * that child seeded, and answers `{ url, token }`; stops on the IPC message `stop`.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ManualClock } from '../src/testing/manual-clock.ts';
import { createOrg } from '../src/testing/org-fixture.ts';
import { startTestApp } from '../src/testing/test-app.ts';

export interface ComputeApiChildReady {
  readonly url: string;
  readonly token: string;
}

const { count, nodes, firstVmids, env } = JSON.parse(process.argv[2] ?? '{}') as {
  count: number;
  nodes: string[];
  firstVmids: number[];
  env: Record<string, string>;
};
const clock = new ManualClock(Date.UTC(2026, 10, 29, 12, 0, 0));
const t = await startTestApp({ clock, env });
const { token } = await t.signUp();
const org = await createOrg(t, token, 'bench');
const db = t.node.runtime.database.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
const made = nodes.flatMap((node, index) =>
  Array.from({ length: count / nodes.length }, (_, j) => ({ node, vmid: firstVmids[index]! + j })),
);
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
const ready: ComputeApiChildReady = { url: t.url, token };
process.send!(ready);
process.on('message', (message) => {
  if (message === 'stop') void t.close().then(() => process.exit(0));
});
