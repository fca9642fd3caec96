/**
 * The endpoints of the local PVE server, with PVE's parameter schemas (qemu-server, pve-manager,
 * pve-storage API definitions) and answers shaped as PVE gives them: integers as numbers where PVE
 * sends numbers, strings where it sends strings (`nextid`, the VNC `port`, `memory` since 8.1),
 * flags present only when set (`template: 1`, `lock`, a snapshot's `vmstate: 1`).
 */
import { randomBytes } from 'node:crypto';
import { driveOf, memoryMb, sizeToBytes, STORAGES, type PveCluster, type VmRecord } from './pve-cluster.ts';
import {
  checkParams,
  fmtConfigId,
  fmtDiskSize,
  fmtDnsName,
  fmtStorageId,
  fmtUrlEncoded,
  fmtVolid,
  NODE,
  pveFail,
  PveApiError,
  upidDecode,
  VMID,
  type ParamSchema,
} from './pve-wire.ts';

export interface RouteContext {
  readonly cluster: PveCluster;
  /** The authenticated token (`user@realm!tokenid`): tasks run as it. */
  readonly user: string;
  /** Path and query/body parameters together, as PVE merges them. */
  readonly params: Readonly<Record<string, string>>;
  /** The certificate the server presents (PEM), shown by vncproxy as PVE does. */
  readonly certPem: string;
}

type Handler = (ctx: RouteContext) => Promise<unknown> | unknown;

interface Route {
  readonly method: string;
  readonly pattern: RegExp;
  readonly names: readonly string[];
  readonly handler: Handler;
}

const routes: Route[] = [];

function route(method: string, template: string, handler: Handler): void {
  const names: string[] = [];
  const re = template.replace(/\{(\w[\w-]*)\}/g, (_m, n: string) => {
    names.push(n);
    return '([^/]+)';
  });
  routes.push({ method, pattern: new RegExp(`^${re}$`), names, handler });
}

export function findRoute(
  method: string,
  path: string,
): { handler: Handler; pathParams: Record<string, string> } | 'method' | null {
  let pathMatched = false;
  for (const r of routes) {
    const m = r.pattern.exec(path);
    if (!m) continue;
    pathMatched = true;
    if (r.method !== method) continue;
    const pathParams: Record<string, string> = {};
    r.names.forEach((n, i) => (pathParams[n] = decodeURIComponent(m[i + 1]!)));
    return { handler: r.handler, pathParams };
  }
  return pathMatched ? 'method' : null;
}

const VM_PATH: ParamSchema = { node: NODE, vmid: VMID };
const int = (v: unknown): number => v as number;
const str = (v: unknown): string => v as string;

function vmOf(ctx: RouteContext, schema: ParamSchema): { vm: VmRecord; p: Record<string, unknown> } {
  const p = checkParams(ctx.params, { ...VM_PATH, ...schema });
  return { vm: ctx.cluster.vm(str(p.node), int(p.vmid)), p };
}

function vmStatus(cluster: PveCluster, vm: VmRecord): Record<string, unknown> {
  const rs = cluster.engine.runState(vm.vmid);
  const c = vm.config;
  const out: Record<string, unknown> = {
    vmid: vm.vmid,
    name: c.name ?? `VM ${vm.vmid}`,
    status: rs.status,
    qmpstatus: rs.qmpstatus,
    uptime: rs.uptimeS,
    cpu: rs.cpu,
    cpus: Number(c.cores ?? 1) * Number(c.sockets ?? 1),
    mem: rs.memBytes,
    maxmem: memoryMb(c) * 1024 * 1024,
    disk: 0,
    maxdisk: c.scsi0 ? driveOf(c.scsi0).size : 0,
    netin: rs.netin,
    netout: rs.netout,
    diskread: rs.diskread,
    diskwrite: rs.diskwrite,
  };
  if (rs.status === 'running') out.pid = 100_000 + vm.vmid;
  if (c.template === '1') out.template = 1;
  if (vm.lock !== null) out.lock = vm.lock;
  return out;
}

/** Config keys PVE answers as numbers (integer and boolean properties). */
const NUMERIC_KEYS = new Set([
  'cores',
  'sockets',
  'template',
  'onboot',
  'numa',
  'balloon',
  'vcpus',
  'protection',
]);

function configView(cluster: PveCluster, vm: VmRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(vm.config)) {
    if (k === 'cipassword') out[k] = '**********';
    else out[k] = NUMERIC_KEYS.has(k) ? Number(v) : v;
  }
  if (vm.lock !== null) out.lock = vm.lock;
  out.digest = cluster.digest(vm.config);
  return out;
}

const CONFIG_SCHEMA: ParamSchema = {
  name: { type: 'string', optional: true, format: fmtDnsName },
  cores: { type: 'integer', optional: true, min: 1, max: 1024 },
  sockets: { type: 'integer', optional: true, min: 1, max: 4 },
  memory: {
    type: 'string',
    optional: true,
    format: (v) =>
      /^(current=)?\d+$/.test(v) && Number(v.replace('current=', '')) >= 16 ? null : `invalid memory '${v}'`,
  },
  boot: {
    type: 'string',
    optional: true,
    format: (v) =>
      /^order=[a-z0-9]+(;[a-z0-9]+)*$/.test(v) ? null : `format error - boot: invalid boot order '${v}'`,
  },
  scsi0: { type: 'string', optional: true, format: fmtVolid },
  ide0: { type: 'string', optional: true },
  ide2: {
    type: 'string',
    optional: true,
    format: (v) =>
      /^(none|cdrom|[a-z][a-z0-9\-_.]*:iso\/[^,]+)(,media=cdrom)?$/i.test(v) ? null : `invalid drive '${v}'`,
  },
  ciuser: { type: 'string', optional: true },
  cipassword: { type: 'string', optional: true },
  sshkeys: { type: 'string', optional: true, format: fmtUrlEncoded },
  ipconfig0: {
    type: 'string',
    optional: true,
    format: (v) =>
      /^(ip=(dhcp|[0-9.]+\/\d+)(,gw=[0-9.]+)?)?(,?ip6=(dhcp|auto|[0-9a-f:]+\/\d+)(,gw6=[0-9a-f:]+)?)?$/i.test(
        v,
      )
        ? null
        : `invalid IP config '${v}'`,
  },
  nameserver: { type: 'string', optional: true },
  searchdomain: { type: 'string', optional: true },
  agent: {
    type: 'string',
    optional: true,
    format: (v) => (/^(0|1|enabled=[01](,.*)?)$/.test(v) ? null : `invalid agent '${v}'`),
  },
  description: { type: 'string', optional: true, maxLength: 8192 },
  onboot: { type: 'boolean', optional: true },
  net0: { type: 'string', optional: true },
  delete: {
    type: 'string',
    optional: true,
    format: (v) =>
      v.split(/[,;\s]+/).every((k) => k === '' || /^[a-z][a-z0-9_]+$/i.test(k))
        ? null
        : `invalid configuration ID list '${v}'`,
  },
  digest: { type: 'string', optional: true, maxLength: 64 },
  skiplock: { type: 'boolean', optional: true },
  background_delay: { type: 'integer', optional: true, min: 1, max: 30 },
};

const SSH_KEY_RE =
  /^(ssh-(rsa|dss|ed25519)|ecdsa-sha2-nistp(256|384|521)|sk-(ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com) [A-Za-z0-9+/]+=*( .*)?$/;

// --- cluster and nodes ---------------------------------------------------------------------------

route('GET', '/version', () => ({ version: '8.2.4', release: '8.2', repoid: 'faa83925c9641325' }));

route('GET', '/nodes', ({ cluster, params }) => {
  checkParams(params, {});
  return cluster.nodes.map((node) => nodeEntry(cluster, node));
});

function nodeEntry(cluster: PveCluster, node: string): Record<string, unknown> {
  return {
    node,
    id: `node/${node}`,
    type: 'node',
    status: 'online',
    level: '',
    cpu: 0.03,
    maxcpu: 16,
    mem: 8 * 1024 ** 3,
    maxmem: 64 * 1024 ** 3,
    disk: 12 * 1024 ** 3,
    maxdisk: 100 * 1024 ** 3,
    uptime: 864_000,
    ssl_fingerprint:
      cluster.clusterName.length > 0
        ? 'AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89'
        : '',
  };
}

route('GET', '/cluster/resources', ({ cluster, params }) => {
  const p = checkParams(params, {
    type: { type: 'string', optional: true, enum: ['vm', 'storage', 'node', 'sdn'] },
  });
  const out: Record<string, unknown>[] = [];
  if (p.type === undefined || p.type === 'node')
    for (const n of cluster.nodes) out.push(nodeEntry(cluster, n));
  if (p.type === undefined || p.type === 'vm') {
    for (const vm of cluster.vms.values()) {
      const s = vmStatus(cluster, vm);
      out.push({
        id: `qemu/${vm.vmid}`,
        type: 'qemu',
        node: vm.node,
        vmid: vm.vmid,
        name: s.name,
        status: s.status,
        template: vm.config.template === '1' ? 1 : 0,
        cpu: s.cpu,
        maxcpu: s.cpus,
        mem: s.mem,
        maxmem: s.maxmem,
        disk: 0,
        maxdisk: s.maxdisk,
        uptime: s.uptime,
        netin: s.netin,
        netout: s.netout,
        diskread: s.diskread,
        diskwrite: s.diskwrite,
        ...(vm.lock !== null ? { lock: vm.lock } : {}),
      });
    }
  }
  if (p.type === undefined || p.type === 'storage') {
    for (const node of cluster.nodes)
      for (const [storage, s] of Object.entries(STORAGES))
        out.push({
          id: `storage/${node}/${storage}`,
          type: 'storage',
          node,
          storage,
          status: 'available',
          plugintype: s.type,
          content: s.content.join(','),
          shared: 0,
          disk: 10 * 1024 ** 3,
          maxdisk: 500 * 1024 ** 3,
        });
  }
  return out;
});

route('GET', '/cluster/nextid', ({ cluster, params }) => {
  const p = checkParams(params, { vmid: { ...VMID, optional: true } });
  if (p.vmid !== undefined) {
    if (cluster.vms.has(int(p.vmid)))
      throw new PveApiError(400, 'Parameter verification failed.', { vmid: `VM ${p.vmid} already exists` });
    return String(p.vmid);
  }
  return String(cluster.nextId());
});

// --- tasks ---------------------------------------------------------------------------------------

function taskOf(ctx: RouteContext) {
  const p = checkParams(ctx.params, { node: NODE, upid: { type: 'string' } });
  ctx.cluster.checkNode(str(p.node));
  const parts = upidDecode(str(p.upid));
  if (!parts) throw pveFail(`unable to parse worker upid '${str(p.upid)}'`);
  const task = ctx.cluster.tasks.get(str(p.upid));
  if (!task || task.node !== p.node) throw pveFail(`no such task`);
  return task;
}

route('GET', '/nodes/{node}/tasks/{upid}/status', (ctx) => {
  const t = taskOf(ctx);
  const bang = t.user.indexOf('!');
  const out: Record<string, unknown> = {
    upid: t.upid,
    node: t.node,
    pid: t.pid,
    pstart: t.pstart,
    starttime: t.starttime,
    type: t.type,
    id: t.id,
    user: bang >= 0 ? t.user.slice(0, bang) : t.user,
    status: t.status,
  };
  if (bang >= 0) out.tokenid = t.user.slice(bang + 1);
  if (t.status === 'stopped') out.exitstatus = t.exitstatus;
  return out;
});

route('GET', '/nodes/{node}/tasks/{upid}/log', (ctx) => {
  const t = taskOf(ctx);
  return t.log.map((line, i) => ({ n: i + 1, t: line }));
});

// --- VMs -----------------------------------------------------------------------------------------

route('GET', '/nodes/{node}/qemu', ({ cluster, params }) => {
  const p = checkParams(params, { node: NODE, full: { type: 'boolean', optional: true } });
  cluster.checkNode(str(p.node));
  const out: Record<string, unknown>[] = [];
  for (const vm of cluster.vms.values()) {
    if (vm.node !== p.node) continue;
    const s = vmStatus(cluster, vm);
    if (p.full !== true) delete s.qmpstatus;
    out.push(s);
  }
  return out;
});

route('POST', '/nodes/{node}/qemu', ({ cluster, params, user }) => {
  const p = checkParams(params, {
    node: NODE,
    vmid: VMID,
    archive: { type: 'string', optional: true, maxLength: 255 },
    force: { type: 'boolean', optional: true },
    storage: { type: 'string', optional: true, format: fmtStorageId },
    unique: { type: 'boolean', optional: true },
    start: { type: 'boolean', optional: true },
  });
  if (p.archive === undefined) throw pveFail('this server creates VMs by clone or restore only');
  return cluster.restore(
    str(p.node),
    int(p.vmid),
    str(p.archive),
    p.force === true,
    p.storage === undefined ? null : str(p.storage),
    p.start === true,
    user,
  );
});

route('DELETE', '/nodes/{node}/qemu/{vmid}', (ctx) => {
  const { vm } = vmOf(ctx, {
    purge: { type: 'boolean', optional: true },
    'destroy-unreferenced-disks': { type: 'boolean', optional: true },
    skiplock: { type: 'boolean', optional: true },
  });
  return ctx.cluster.destroy(vm, ctx.user);
});

route('POST', '/nodes/{node}/qemu/{vmid}/clone', (ctx) => {
  const { vm, p } = vmOf(ctx, {
    newid: VMID,
    name: { type: 'string', optional: true, format: fmtDnsName },
    full: { type: 'boolean', optional: true },
    storage: { type: 'string', optional: true, format: fmtStorageId },
    target: { ...NODE, optional: true },
    description: { type: 'string', optional: true },
    pool: { type: 'string', optional: true },
    format: { type: 'string', optional: true, enum: ['raw', 'qcow2', 'vmdk'] },
  });
  if (p.target !== undefined && p.target !== vm.node)
    throw pveFail(`can't clone to node '${str(p.target)}' (VM uses local storage)`);
  if (p.full !== true && vm.config.template !== '1')
    throw pveFail('Linked clone feature is not supported for this VM');
  if (p.full === false && p.storage !== undefined) throw pveFail('storage is only valid for full clones');
  return ctx.cluster.clone(
    vm,
    int(p.newid),
    p.name === undefined ? null : str(p.name),
    p.storage === undefined ? null : str(p.storage),
    ctx.user,
  );
});

route('GET', '/nodes/{node}/qemu/{vmid}/config', (ctx) => {
  const { vm } = vmOf(ctx, {
    current: { type: 'boolean', optional: true },
    snapshot: { type: 'string', optional: true },
  });
  return configView(ctx.cluster, vm);
});

async function updateConfig(ctx: RouteContext, async: boolean): Promise<unknown> {
  const { vm, p } = vmOf(ctx, CONFIG_SCHEMA);
  const { cluster } = ctx;
  // PUT applies at once; POST in a task (PVE's asynchronous API), where the lock is checked.
  if (!async && p.skiplock !== true) cluster.checkLock(vm);
  if (p.digest !== undefined && p.digest !== cluster.digest(vm.config))
    throw pveFail('detected modified configuration - file changed by other user? Try again.');
  const sets: Record<string, string> = {};
  for (const [k, v] of Object.entries(p)) {
    if (['node', 'vmid', 'delete', 'digest', 'skiplock', 'background_delay'].includes(k)) continue;
    sets[k] = typeof v === 'boolean' ? (v ? '1' : '0') : String(v);
  }
  const deletes =
    p.delete === undefined
      ? []
      : str(p.delete)
          .split(/[,;\s]+/)
          .filter((k) => k !== '');
  for (const k of deletes)
    if (k in sets)
      throw new PveApiError(400, 'Parameter verification failed.', {
        delete: `you can't use '-${k}' and '-delete ${k}' at the same time`,
      });
  if (sets.sshkeys !== undefined) {
    let keys: string;
    try {
      keys = decodeURIComponent(sets.sshkeys);
    } catch {
      throw new PveApiError(400, 'Parameter verification failed.', { sshkeys: 'invalid urlencoded string' });
    }
    for (const line of keys.split('\n')) {
      const l = line.trim();
      if (l === '' || l.startsWith('#')) continue;
      if (!SSH_KEY_RE.test(l))
        throw new PveApiError(400, 'Parameter verification failed.', {
          sshkeys: `invalid format - unable to parse ssh key '${l.slice(0, 40)}'`,
        });
    }
  }
  if (sets.ide2 !== undefined) {
    const volid = driveOf(sets.ide2).volid;
    if (volid !== 'none' && volid !== 'cdrom') cluster.isoPath(volid);
    if (!sets.ide2.includes('media=')) sets.ide2 += ',media=cdrom';
  }
  if (sets.cipassword !== undefined) sets.cipassword = await cluster.hashPassword(sets.cipassword);
  const apply = async (): Promise<void> => {
    const cdromBefore = vm.config.ide2;
    for (const k of deletes) delete vm.config[k];
    Object.assign(vm.config, sets);
    if (vm.config.ide2 !== cdromBefore && cluster.running(vm))
      await cluster.engine.changeMedium(vm.vmid, cluster.spec(vm).cdromPath);
  };
  if (!async) {
    await apply();
    return null;
  }
  return cluster.lockedTask(vm, null, 'qmconfig', ctx.user, apply, p.skiplock === true);
}

route('POST', '/nodes/{node}/qemu/{vmid}/config', (ctx) => updateConfig(ctx, true));
route('PUT', '/nodes/{node}/qemu/{vmid}/config', (ctx) => updateConfig(ctx, false));

route('PUT', '/nodes/{node}/qemu/{vmid}/resize', (ctx) => {
  const { vm, p } = vmOf(ctx, {
    disk: { type: 'string', enum: ['scsi0', 'scsi1', 'virtio0', 'sata0', 'ide0', 'ide1', 'ide2', 'ide3'] },
    size: { type: 'string', format: fmtDiskSize },
    digest: { type: 'string', optional: true, maxLength: 64 },
    skiplock: { type: 'boolean', optional: true },
  });
  const { cluster } = ctx;
  const disk = str(p.disk);
  const drive = vm.config[disk];
  if (drive === undefined || driveOf(drive).media === 'cdrom') throw pveFail(`disk '${disk}' does not exist`);
  const current = driveOf(drive).size;
  const sizeText = str(p.size);
  const bytes = sizeText.startsWith('+') ? current + sizeToBytes(sizeText.slice(1)) : sizeToBytes(sizeText);
  if (bytes < current) throw pveFail('shrinking disks is not supported');
  const gb = Math.ceil(bytes / 1024 ** 3);
  return cluster.lockedTask(
    vm,
    null,
    'resize',
    ctx.user,
    async () => {
      await cluster.engine.resizeDisk(vm.vmid, gb);
      vm.config[disk] = drive.replace(/size=[^,]+/, `size=${gb}G`);
    },
    p.skiplock === true,
  );
});

route('PUT', '/nodes/{node}/qemu/{vmid}/cloudinit', (ctx) => {
  const { vm } = vmOf(ctx, {});
  const hasDrive = ['ide0', 'ide1', 'ide2', 'ide3', 'scsi1', 'sata0'].some((k) =>
    /cloudinit/.test(vm.config[k] ?? ''),
  );
  if (!hasDrive) throw pveFail('no cloudinit disk found');
  ctx.cluster.checkLock(vm);
  return null;
});

route('GET', '/nodes/{node}/qemu/{vmid}/status/current', (ctx) => {
  const { vm } = vmOf(ctx, {});
  const s = vmStatus(ctx.cluster, vm);
  s.ha = { managed: 0 };
  const agent = vm.config.agent;
  if (agent !== undefined && (agent === '1' || /(^|,)enabled=1/.test(agent))) s.agent = 1;
  if (s.status === 'running') {
    s['running-machine'] = 'pc-i440fx-8.1+pve0';
    s['running-qemu'] = '8.1.5';
  }
  return s;
});

const POWER_SCHEMAS: Readonly<Record<string, ParamSchema>> = {
  start: {
    skiplock: { type: 'boolean', optional: true },
    timeout: { type: 'integer', optional: true, min: 0 },
  },
  stop: {
    skiplock: { type: 'boolean', optional: true },
    timeout: { type: 'integer', optional: true, min: 0 },
    keepActive: { type: 'boolean', optional: true },
  },
  shutdown: {
    skiplock: { type: 'boolean', optional: true },
    timeout: { type: 'integer', optional: true, min: 0 },
    forceStop: { type: 'boolean', optional: true },
    keepActive: { type: 'boolean', optional: true },
  },
  reboot: { timeout: { type: 'integer', optional: true, min: 0 } },
  reset: { skiplock: { type: 'boolean', optional: true } },
  suspend: { skiplock: { type: 'boolean', optional: true }, todisk: { type: 'boolean', optional: true } },
  resume: { skiplock: { type: 'boolean', optional: true }, nocheck: { type: 'boolean', optional: true } },
};

for (const [action, schema] of Object.entries(POWER_SCHEMAS)) {
  route('POST', `/nodes/{node}/qemu/{vmid}/status/${action}`, (ctx) => {
    const { vm, p } = vmOf(ctx, schema);
    if (p.todisk === true) throw pveFail('hibernation is not supported by this server');
    return ctx.cluster.power(vm, action, p, ctx.user);
  });
}

// --- snapshots -----------------------------------------------------------------------------------

const SNAPNAME = { type: 'string', format: fmtConfigId, maxLength: 40 } as const;

route('GET', '/nodes/{node}/qemu/{vmid}/snapshot', (ctx) => {
  const { vm } = vmOf(ctx, {});
  const out: Record<string, unknown>[] = [...vm.snapshots.values()]
    .sort((a, b) => a.snaptime - b.snaptime)
    .map((s) => ({
      name: s.name,
      description: s.description,
      snaptime: s.snaptime,
      ...(s.vmstate ? { vmstate: 1 } : {}),
      ...(s.parent !== null ? { parent: s.parent } : {}),
    }));
  out.push({
    name: 'current',
    description: 'You are here!',
    running: ctx.cluster.running(vm) ? 1 : 0,
    ...(vm.parent !== null ? { parent: vm.parent } : {}),
  });
  return out;
});

route('POST', '/nodes/{node}/qemu/{vmid}/snapshot', (ctx) => {
  const { vm, p } = vmOf(ctx, {
    snapname: SNAPNAME,
    description: { type: 'string', optional: true, maxLength: 8192 },
    vmstate: { type: 'boolean', optional: true },
  });
  return ctx.cluster.snapshotCreate(
    vm,
    str(p.snapname),
    (p.description as string | undefined) ?? '',
    p.vmstate === true,
    ctx.user,
  );
});

route('GET', '/nodes/{node}/qemu/{vmid}/snapshot/{snapname}', (ctx) => {
  const { vm, p } = vmOf(ctx, { snapname: SNAPNAME });
  if (!vm.snapshots.has(str(p.snapname))) throw pveFail(`snapshot '${str(p.snapname)}' does not exist`);
  return [{ cmd: 'config' }, { cmd: 'rollback' }];
});

route('DELETE', '/nodes/{node}/qemu/{vmid}/snapshot/{snapname}', (ctx) => {
  const { vm, p } = vmOf(ctx, { snapname: SNAPNAME, force: { type: 'boolean', optional: true } });
  return ctx.cluster.snapshotDelete(vm, str(p.snapname), ctx.user);
});

route('POST', '/nodes/{node}/qemu/{vmid}/snapshot/{snapname}/rollback', (ctx) => {
  const { vm, p } = vmOf(ctx, { snapname: SNAPNAME, start: { type: 'boolean', optional: true } });
  return ctx.cluster.snapshotRollback(vm, str(p.snapname), p.start === true, ctx.user);
});

// --- backups and storage ---------------------------------------------------------------------------

route('POST', '/nodes/{node}/vzdump', ({ cluster, params, user }) => {
  const p = checkParams(params, {
    node: NODE,
    vmid: {
      type: 'string',
      format: (v) => (/^\d+$/.test(v) ? null : `value '${v}' does not look like a valid VM ID`),
    },
    mode: { type: 'string', optional: true, enum: ['snapshot', 'suspend', 'stop'] },
    compress: { type: 'string', optional: true, enum: ['0', '1', 'gzip', 'lzo', 'zstd'] },
    storage: { type: 'string', optional: true, format: fmtStorageId },
    'notes-template': {
      type: 'string',
      optional: true,
      maxLength: 1024,
      format: (v) => (/[\n\r]/.test(v) ? 'notes template must be a single line' : null),
    },
    remove: { type: 'boolean', optional: true },
    protected: { type: 'boolean', optional: true },
  });
  cluster.checkNode(str(p.node));
  return cluster.vzdump(
    str(p.node),
    Number(p.vmid),
    (p.mode as 'snapshot' | 'suspend' | 'stop' | undefined) ?? 'snapshot',
    (p.compress as string | undefined) ?? '0',
    (p.storage as string | undefined) ?? 'local',
    (p['notes-template'] as string | undefined) ?? null,
    user,
  );
});

route('GET', '/nodes/{node}/storage/{storage}/content', ({ cluster, params }) => {
  const p = checkParams(params, {
    node: NODE,
    storage: { type: 'string', format: fmtStorageId },
    content: {
      type: 'string',
      optional: true,
      enum: ['images', 'rootdir', 'vztmpl', 'iso', 'backup', 'snippets', 'import'],
    },
    vmid: { ...VMID, optional: true },
  });
  cluster.checkNode(str(p.node));
  const storage = str(p.storage);
  const s = cluster.storage(storage);
  const want = (c: string): boolean => s.content.includes(c) && (p.content === undefined || p.content === c);
  const out: Record<string, unknown>[] = [];
  if (want('iso') && p.vmid === undefined)
    for (const iso of cluster.isos())
      out.push({ volid: iso.volid, content: 'iso', format: 'iso', size: iso.size, ctime: iso.ctime });
  if (want('backup'))
    for (const b of cluster.backupsOf(str(p.node), storage)) {
      if (p.vmid !== undefined && b.vmid !== p.vmid) continue;
      out.push({
        volid: b.volid,
        content: 'backup',
        format: b.format,
        size: b.size,
        ctime: b.ctime,
        vmid: b.vmid,
        subtype: 'qemu',
        ...(b.notes !== null ? { notes: b.notes } : {}),
      });
    }
  if (want('images'))
    for (const vm of cluster.vms.values()) {
      if (vm.node !== p.node || (p.vmid !== undefined && vm.vmid !== p.vmid)) continue;
      const d = driveOf(vm.config.scsi0 ?? '');
      if (!d.volid.startsWith(`${storage}:`)) continue;
      out.push({ volid: d.volid, content: 'images', format: 'raw', size: d.size, vmid: vm.vmid, ctime: 0 });
    }
  return out;
});

route('DELETE', '/nodes/{node}/storage/{storage}/content/{volume}', ({ cluster, params, user }) => {
  const p = checkParams(params, {
    node: NODE,
    storage: { type: 'string', format: fmtStorageId },
    volume: { type: 'string' },
    delay: { type: 'integer', optional: true, min: 1, max: 30 },
  });
  cluster.checkNode(str(p.node));
  return cluster.deleteVolume(str(p.node), str(p.storage), str(p.volume), user);
});

// --- graphs --------------------------------------------------------------------------------------

/** PVE's RRAs (PVE::RRD): 70 points per time frame, at these steps (seconds). */
const RRD_STEP: Readonly<Record<string, number>> = {
  hour: 60,
  day: 1800,
  week: 10_800,
  month: 43_200,
  year: 604_800,
};
const RRD_POINTS = 70;

route('GET', '/nodes/{node}/qemu/{vmid}/rrddata', (ctx) => {
  const { vm, p } = vmOf(ctx, {
    timeframe: { type: 'string', enum: ['hour', 'day', 'week', 'month', 'year'] },
    cf: { type: 'string', optional: true, enum: ['AVERAGE', 'MAX'] },
  });
  const step = RRD_STEP[str(p.timeframe)]!;
  const max = p.cf === 'MAX';
  const { cluster } = ctx;
  const now = cluster.nowS();
  const last = Math.floor(now / step) * step;
  const created = Number(/ctime=(\d+)/.exec(vm.config.meta ?? '')?.[1] ?? 0);
  const rs = cluster.engine.runState(vm.vmid);
  const cpus = Number(vm.config.cores ?? 1) * Number(vm.config.sockets ?? 1);
  const maxmem = memoryMb(vm.config) * 1024 * 1024;
  const maxdisk = driveOf(vm.config.scsi0 ?? '').size;
  const out: Record<string, unknown>[] = [];
  for (let i = RRD_POINTS - 1; i >= 0; i -= 1) {
    const time = last - i * step;
    if (time + step <= created) {
      out.push({ time });
      continue;
    }
    // A plausible load that waves over the day, deterministic per VM and time.
    const wave = 0.5 + 0.5 * Math.sin((time / 86_400) * 2 * Math.PI + vm.vmid);
    const jitter = ((vm.vmid * 2_654_435_761 + time) % 1000) / 1000;
    const k = max ? 1.6 : 1;
    const load = Math.min(1, (0.04 + 0.2 * wave + 0.05 * jitter) * k);
    out.push({
      time,
      cpu: Math.round(load * 1e6) / 1e6,
      maxcpu: cpus,
      mem: Math.floor(maxmem * (0.3 + 0.2 * wave) * (max ? 1.1 : 1)),
      maxmem,
      disk: 0,
      maxdisk,
      netin: Math.round((2_000 + 30_000 * wave * jitter) * k * 100) / 100,
      netout: Math.round((1_000 + 12_000 * wave * jitter) * k * 100) / 100,
      diskread: Math.round((500 + 8_000 * jitter) * k * 100) / 100,
      diskwrite: Math.round((1_500 + 20_000 * wave) * k * 100) / 100,
    });
  }
  if (rs.status === 'stopped' && out.length > 0) out[out.length - 1] = { time: last };
  return out;
});

// --- guest agent ---------------------------------------------------------------------------------

async function agentOf(ctx: RouteContext, schema: ParamSchema) {
  const { vm, p } = vmOf(ctx, schema);
  const { cluster } = ctx;
  const agent = vm.config.agent;
  if (agent === undefined || !(agent === '1' || /(^|,)enabled=1/.test(agent)))
    throw pveFail('No QEMU guest agent configured');
  if (!cluster.running(vm)) throw pveFail(`VM ${vm.vmid} is not running`);
  const answer = await cluster.engine.guestAgent(vm.vmid);
  if (answer === null) throw pveFail('QEMU guest agent is not running');
  return { vm, p, answer };
}

route('GET', '/nodes/{node}/qemu/{vmid}/agent/get-osinfo', async (ctx) => ({
  result: (await agentOf(ctx, {})).answer.os,
}));
route('GET', '/nodes/{node}/qemu/{vmid}/agent/network-get-interfaces', async (ctx) => ({
  result: (await agentOf(ctx, {})).answer.interfaces,
}));
route('POST', '/nodes/{node}/qemu/{vmid}/agent/set-user-password', async (ctx) => {
  const raw = ctx.params.password;
  if (raw !== undefined && raw.length < 5)
    throw new PveApiError(400, 'Parameter verification failed.', {
      password: 'value must be at least 5 characters long',
    });
  const { vm, p } = await agentOf(ctx, {
    username: { type: 'string', maxLength: 64 },
    password: { type: 'string', maxLength: 1024 },
    crypted: { type: 'boolean', optional: true },
  });
  await ctx.cluster.engine.guestSetUserPassword?.(
    vm.vmid,
    str(p.username),
    str(p.password),
    p.crypted === true,
  );
  return { result: {} };
});

// --- console -------------------------------------------------------------------------------------

route('POST', '/nodes/{node}/qemu/{vmid}/vncproxy', (ctx) => {
  const { vm } = vmOf(ctx, {
    websocket: { type: 'boolean', optional: true },
    'generate-password': { type: 'boolean', optional: true },
  });
  const { cluster } = ctx;
  if (!cluster.running(vm)) throw pveFail(`VM ${vm.vmid} not running`);
  const port = 5900 + (vm.vmid % 100);
  const stamp = cluster.nowS().toString(16).toUpperCase().padStart(8, '0');
  const ticket = `PVEVNC:${stamp}::${randomBytes(256).toString('base64')}`;
  const upid = cluster.tasks.start(vm.node, 'vncproxy', String(vm.vmid), ctx.user, async () => undefined);
  return { user: ctx.user, ticket, port: String(port), upid, cert: ctx.certPem };
});
