import type { OsTemplate } from '../../catalog/index.ts';
import type { ComputeProvider, StartedTask, VmListEntry } from '../provider/compute-provider.ts';

/** The template VM of `template` on `node`, or null when the node holds none. */
export function templateVmidOn(template: OsTemplate, node: string): number | null {
  const v = template.pve_template_vmid;
  if (v === null) return null;
  if (typeof v === 'number') return v;
  return v[node] ?? null;
}

/**
 * Where a new instance goes: among the nodes holding the template VM (seen as a template in that
 * node's list), the one running the fewest VMs; null when none holds it. One list call per node.
 */
export async function chooseNode(
  provider: ComputeProvider,
  template: OsTemplate,
): Promise<{ node: string; templateVmid: number } | null> {
  let best: { node: string; templateVmid: number; load: number } | null = null;
  for (const node of await provider.nodes()) {
    const vmid = templateVmidOn(template, node);
    if (vmid === null) continue;
    const vms: VmListEntry[] = await provider.listVms(node);
    if (!vms.some((v) => v.vmid === vmid && v.template)) continue;
    const load = vms.filter((v) => !v.template).length;
    if (best === null || load < best.load) best = { node, templateVmid: vmid, load };
  }
  return best === null ? null : { node: best.node, templateVmid: best.templateVmid };
}

/** What cloud-init and the VM config get (PVE's keys). */
export interface InstallSpec {
  readonly node: string;
  readonly vmid: number;
  readonly templateVmid: number;
  readonly hostname: string;
  readonly vcpus: number;
  readonly memoryMb: number;
  readonly diskGb: number;
  readonly ciUser: string;
  readonly sshKeys: string;
  readonly ipconfig0: string;
  readonly description: string;
}

/** Waits for a task when there is one (config and resize calls may answer none). */
export async function waitFor(
  provider: ComputeProvider,
  task: StartedTask | null,
  timeoutMs: number,
): Promise<void> {
  if (task !== null) await provider.waitTask(task, timeoutMs);
}

/**
 * Makes the VM from its template: a full clone, then its config (cores, memory, the guest agent,
 * cloud-init user, SSH keys, address), the disk grown to the plan, and the first start. Each task
 * is waited for through the port; the first failure throws (ProviderError).
 */
export async function installVm(
  provider: ComputeProvider,
  spec: InstallSpec,
  timeoutMs: number,
): Promise<void> {
  const { node, vmid } = spec;
  await provider.waitTask(await provider.cloneVm(node, spec.templateVmid, vmid, spec.hostname), timeoutMs);
  await waitFor(
    provider,
    await provider.updateVmConfig(node, vmid, {
      name: spec.hostname,
      cores: spec.vcpus,
      sockets: 1,
      memory: spec.memoryMb,
      agent: '1',
      ciuser: spec.ciUser,
      ipconfig0: spec.ipconfig0,
      description: spec.description,
      ...(spec.sshKeys !== '' ? { sshkeys: spec.sshKeys } : {}),
    }),
    timeoutMs,
  );
  await waitFor(provider, await provider.resizeDisk(node, vmid, 'scsi0', `${spec.diskGb}G`), timeoutMs);
  await provider.regenerateCloudInit(node, vmid);
  await provider.waitTask(await provider.power(node, vmid, 'start'), timeoutMs);
}
