/** An instance as the API answers it. */
import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type { VmListEntry } from '../provider/compute-provider.ts';
import type { Instance, ListedInstance } from './instances-repository.ts';

export const INSTANCE_STATUSES = [
  'running',
  'stopped',
  'paused',
  'suspended',
  'installing',
  'rebuilding',
  'restoring',
  'rescue',
] as const;
export type InstanceStatus = (typeof INSTANCE_STATUSES)[number];

export type InstanceView = JsonView<
  Pick<
    Instance,
    | 'uuid'
    | 'service_id'
    | 'name'
    | 'hostname'
    | 'node'
    | 'vmid'
    | 'vcpus'
    | 'memory_mb'
    | 'disk_gb'
    | 'location'
    | 'created_at'
  >
> & {
  status: InstanceStatus;
  template: { id: number; name: string };
  ips: IpAddressView[];
};

/** An address of an instance (from its row's lease). */
export type IpAddressView = JsonView<{ address: string; family: 'ipv4'; gateway: string; prefix: number }>;

/**
 * The status shown: the platform's own state while it is not `active` (a failed install or
 * rebuild shows `stopped`), else the hypervisor's — `paused` told from QMP's status, since PVE's
 * `status` says `running` while paused; a VM missing from its node's list is `stopped`.
 */
export function statusOf(
  instance: Pick<Instance, 'state'>,
  vm: VmListEntry | null | undefined,
): InstanceStatus {
  switch (instance.state) {
    case 'installing':
    case 'rebuilding':
    case 'restoring':
    case 'suspended':
    case 'rescue':
      return instance.state;
    case 'active':
      if (vm === null || vm === undefined || vm.status !== 'running') return 'stopped';
      return vm.qmpstatus === 'paused' || vm.qmpstatus === 'suspended' ? 'paused' : 'running';
    default:
      return 'stopped';
  }
}

export function ipsOf(instance: Pick<Instance, 'ipv4' | 'ipv4_gateway' | 'ipv4_prefix'>): IpAddressView[] {
  if (instance.ipv4 === null) return [];
  return [
    {
      address: instance.ipv4,
      family: 'ipv4',
      gateway: instance.ipv4_gateway ?? '',
      prefix: instance.ipv4_prefix ?? 32,
    },
  ];
}

export function instanceView(instance: Instance, vm: VmListEntry | null | undefined): InstanceView {
  return {
    uuid: instance.uuid,
    service_id: instance.service_id,
    name: instance.name,
    hostname: instance.hostname,
    status: statusOf(instance, vm),
    node: instance.node,
    vmid: instance.vmid,
    template: { id: instance.template_id, name: instance.template_name },
    vcpus: instance.vcpus,
    memory_mb: instance.memory_mb,
    disk_gb: instance.disk_gb,
    ips: ipsOf(instance),
    location: instance.location,
    created_at: instance.created_at.toISOString(),
  };
}

/** The view of a listed row: the same fields, `created_at` as the query wrote it. */
export function listedView(instance: ListedInstance, vm: VmListEntry | undefined): InstanceView {
  return {
    uuid: instance.uuid,
    service_id: instance.service_id,
    name: instance.name,
    hostname: instance.hostname,
    status: statusOf(instance, vm),
    node: instance.node,
    vmid: instance.vmid,
    template: { id: instance.template_id, name: instance.template_name },
    vcpus: instance.vcpus,
    memory_mb: instance.memory_mb,
    disk_gb: instance.disk_gb,
    ips: ipsOf(instance),
    location: instance.location,
    created_at: instance.created_at,
  };
}
