import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Clock } from '../kernel/clock.ts';
import { startLocalPve, StateEngine, type LocalPve } from '../modules/compute/index.ts';
import { eventually } from './eventually.ts';
import type { TestApp } from './test-app.ts';

/** The catalogue's free cloud trial plan (catalog/products.json). */
export const CLOUD_TRIAL = { product_id: 43, pricing_id: 27 } as const;

/** The template VMs catalog/os-templates.json names (`pve_template_vmid` 9001..9005). */
export const TEMPLATE_VMIDS = [9001, 9002, 9003, 9004, 9005] as const;

export interface LocalCluster {
  readonly pve: LocalPve;
  readonly engine: StateEngine;
  /** The settings the product's PVE adapter takes for it. */
  readonly env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * A local PVE-shaped server on the state engine with the catalogue's template VMs on the first
 * node (and, with `secondNodeTemplates`, copies under vmid + 100 on the second), and a rescue ISO.
 */
export async function startLocalCluster(
  clock: Clock,
  options: { nodes?: readonly string[]; secondNodeTemplates?: boolean } = {},
): Promise<LocalCluster> {
  const dir = mkdtempSync(path.join(tmpdir(), 'local-pve-'));
  const nodes = options.nodes ?? ['pve1', 'pve2'];
  const engine = new StateEngine({ clock });
  const templates = TEMPLATE_VMIDS.flatMap((vmid, i) => [
    { vmid, name: `template-${i + 1}`, node: nodes[0]!, diskGb: 2 },
    ...(options.secondNodeTemplates === true && nodes[1] !== undefined
      ? [{ vmid: vmid + 100, name: `template-${i + 1}`, node: nodes[1], diskGb: 2 }]
      : []),
  ]);
  const pve = await startLocalPve({
    engine,
    dataDir: dir,
    nodes,
    templates,
    isos: [{ name: 'systemrescue-11.02-amd64.iso', size: 1_000_000 }],
    clock,
  });
  return {
    pve,
    engine,
    env: { PVE_URL: pve.url, PVE_TOKEN_ID: pve.tokenId, PVE_TOKEN_SECRET: pve.tokenSecret },
    async close() {
      await pve.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Orders the cloud trial for an organization over the API and waits for the instance to run;
 * answers its uuid and service id.
 */
export async function orderInstance(
  t: TestApp,
  token: string,
  orgSlug: string,
  config: { hostname: string; os_template?: string },
): Promise<{ uuid: string; serviceId: number }> {
  const locations = (await t.request('GET', '/api/v1/locations')).body as { id: number; code: string }[];
  const location_id = locations.find((l) => l.code === 'FRA')!.id;
  const res = await t.request('POST', '/api/v1/services/order', {
    token,
    body: {
      ...CLOUD_TRIAL,
      location_id,
      org_slug: orgSlug,
      config: { os_template: config.os_template ?? 'debian-12', hostname: config.hostname },
    },
  });
  if (res.status !== 201 || res.body.status !== 'active') throw new Error(`order: ${res.status} ${res.text}`);
  const serviceId = res.body.id as number;
  const uuid = await eventually(async () => {
    const list = await t.request('GET', `/api/v1/orgs/${orgSlug}/vps`, { token });
    const found = (list.body.items as { uuid: string; service_id: number; status: string }[]).find(
      (i) => i.service_id === serviceId,
    );
    return found !== undefined && found.status === 'running' ? found.uuid : false;
  }, 15_000);
  return { uuid, serviceId };
}

/** A fresh OpenSSH ed25519 public key line. */
export function ed25519PublicKey(comment: string): string {
  const der = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' });
  const raw = der.subarray(der.length - 32);
  const str = (b: Buffer): Buffer => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(b.length);
    return Buffer.concat([len, b]);
  };
  const blob = Buffer.concat([str(Buffer.from('ssh-ed25519')), str(raw)]);
  return `ssh-ed25519 ${blob.toString('base64')} ${comment}`;
}
