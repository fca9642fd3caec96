/**
 * The guest the QEMU engine boots: Debian's cloud kernel (the package the metapackage
 * `linux-image-cloud-amd64` depends on, fetched with `apt-get download` and unpacked with
 * `dpkg-deb -x`) and a small initramfs made here from the static busybox (Debian's
 * `busybox-static`) and the few kernel modules the cloud kernel builds as modules but the guest
 * needs: virtio (the disk is virtio-blk), evdev and the ACPI button (so that busybox `acpid` sees
 * the power button and runs `poweroff -f`, which is how PVE's `shutdown` reaches a guest).
 *
 * The init mounts /proc, /sys and /dev, loads the modules, starts acpid, prints `guest ready` on
 * the serial console and then `tick <n>` every second: a counter held in the guest's RAM alone,
 * which is how a test tells that a snapshot with vmstate brought the running state back.
 *
 * `ensureGuestImage(dir)` builds `<dir>/vmlinuz` and `<dir>/initrd.img` when they are absent
 * (idempotent); a kernel package already in `dir` (`linux-image-*-cloud-amd64_*.deb`) is used
 * instead of downloading one.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';

const execFileP = promisify(execFile);

export const GUEST_KERNEL = 'vmlinuz';
export const GUEST_INITRD = 'initrd.img';
/** The line the guest's init prints once acpid runs (the power button then works). */
export const GUEST_READY_LINE = 'guest ready';
const BUSYBOX_PATHS = ['/bin/busybox', '/usr/bin/busybox'];
const KERNEL_META_PACKAGE = 'linux-image-cloud-amd64';
const COMMAND_TIMEOUT_MS = 300_000;

/** Loaded in this order (none of them depends on one loaded later). */
const GUEST_MODULES = [
  'drivers/virtio/virtio_ring.ko',
  'drivers/virtio/virtio.ko',
  'drivers/virtio/virtio_pci_modern_dev.ko',
  'drivers/virtio/virtio_pci_legacy_dev.ko',
  'drivers/virtio/virtio_pci.ko',
  'drivers/block/virtio_blk.ko',
  'drivers/input/evdev.ko',
  'drivers/acpi/button.ko',
] as const;

export interface GuestImage {
  readonly kernel: string;
  readonly initrd: string;
}

/** The init script of the initramfs. */
export function guestInitScript(): string {
  const modules = GUEST_MODULES.map((m) => path.basename(m, '.ko')).join(' ');
  return `#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
for m in ${modules}; do insmod /lib/modules/$m.ko || echo "guest: insmod $m failed"; done
# busybox acpid maps the power button (KEY_POWER) to the action PWRF/00000080 under /etc/acpi.
mkdir -p /etc/acpi/PWRF
printf '#!/bin/sh\\necho "guest: power button, powering off"\\nsync\\npoweroff -f\\n' > /etc/acpi/PWRF/00000080
chmod +x /etc/acpi/PWRF/00000080
acpid -d -c /etc/acpi > /dev/console 2>&1 &
acpid_pid=$!
# Ready only once acpid has opened the input devices: a press before that would be lost.
i=0
while [ $i -lt 100 ] && ! ls -l /proc/$acpid_pid/fd 2>/dev/null | grep -q /dev/input/event; do i=$((i + 1)); usleep 50000; done
for d in /dev/vd?; do [ -b "$d" ] && echo "guest: disk $d"; done
echo "${GUEST_READY_LINE}"
n=0
while true; do n=$((n + 1)); echo "tick $n"; sleep 1; done
`;
}

interface CpioEntry {
  readonly name: string;
  /** File type and permission bits (st_mode). */
  readonly mode: number;
  readonly data: Buffer;
}

/** A `newc` cpio archive (the initramfs format, Documentation/driver-api/early-userspace). */
export function newcArchive(entries: readonly CpioEntry[]): Buffer {
  const parts: Buffer[] = [];
  const pad4 = (n: number): Buffer => Buffer.alloc((4 - (n % 4)) % 4);
  const hex = (n: number): string => n.toString(16).padStart(8, '0');
  const push = (e: CpioEntry, ino: number): void => {
    const name = Buffer.from(`${e.name}\0`);
    const header =
      '070701' +
      hex(ino) +
      hex(e.mode) +
      hex(0) + // uid
      hex(0) + // gid
      hex(1) + // nlink
      hex(0) + // mtime
      hex(e.data.length) +
      hex(0) + // devmajor
      hex(0) + // devminor
      hex(0) + // rdevmajor
      hex(0) + // rdevminor
      hex(name.length) +
      hex(0); // check
    parts.push(Buffer.from(header), name, pad4(110 + name.length), e.data, pad4(e.data.length));
  };
  entries.forEach((e, i) => push(e, i + 1));
  push({ name: 'TRAILER!!!', mode: 0, data: Buffer.alloc(0) }, 0);
  return Buffer.concat(parts);
}

async function run(cmd: string, args: string[], cwd?: string): Promise<string> {
  const { stdout } = await execFileP(cmd, args, { cwd, timeout: COMMAND_TIMEOUT_MS, maxBuffer: 16 << 20 });
  return stdout;
}

/** The kernel package file in dir, downloading it (`apt-get download`) when there is none. */
async function kernelPackage(dir: string): Promise<string> {
  const isKernelDeb = (f: string): boolean => /^linux-image-.*-cloud-amd64_.*_amd64\.deb$/.test(f);
  let found = (await readdir(dir)).filter(isKernelDeb).sort();
  if (found.length === 0) {
    const depends = await run('apt-cache', ['depends', KERNEL_META_PACKAGE]).catch(() => '');
    const pkg = /Depends:\s*(linux-image-\S+-cloud-amd64)/.exec(depends)?.[1];
    if (pkg === undefined) {
      throw new Error(
        `cannot find the package ${KERNEL_META_PACKAGE} depends on (run apt-get update), nor a kernel package in ${dir}`,
      );
    }
    await run('apt-get', ['download', pkg], dir);
    found = (await readdir(dir)).filter(isKernelDeb).sort();
    if (found.length === 0) throw new Error(`apt-get download ${pkg} left no package in ${dir}`);
  }
  return path.join(dir, found[found.length - 1]!);
}

/** Builds `<dir>/vmlinuz` and `<dir>/initrd.img` when absent; answers their paths. */
export async function ensureGuestImage(dir: string): Promise<GuestImage> {
  const image = { kernel: path.join(dir, GUEST_KERNEL), initrd: path.join(dir, GUEST_INITRD) };
  if (existsSync(image.kernel) && existsSync(image.initrd)) return image;
  await mkdir(dir, { recursive: true });
  const busybox = BUSYBOX_PATHS.find((p) => existsSync(p));
  if (busybox === undefined) throw new Error('busybox is not installed: apt-get install busybox-static');
  const deb = await kernelPackage(dir);
  const unpacked = await mkdtemp(path.join(os.tmpdir(), 'guest-kernel-'));
  try {
    await run('dpkg-deb', ['-x', deb, unpacked]);
    const boot = path.join(unpacked, 'boot');
    const vmlinuz = (await readdir(boot)).find((f) => f.startsWith('vmlinuz-'));
    if (vmlinuz === undefined) throw new Error(`${deb} holds no boot/vmlinuz-*`);
    const release = vmlinuz.slice('vmlinuz-'.length);
    const modDir = path.join(unpacked, 'lib', 'modules', release, 'kernel');
    const dirEntry = (name: string): CpioEntry => ({ name, mode: 0o040755, data: Buffer.alloc(0) });
    const entries: CpioEntry[] = [
      ...['bin', 'dev', 'etc', 'lib', 'lib/modules', 'mnt', 'proc', 'sys', 'tmp'].map(dirEntry),
      { name: 'bin/busybox', mode: 0o100755, data: await readFile(busybox) },
      { name: 'init', mode: 0o100755, data: Buffer.from(guestInitScript()) },
    ];
    for (const m of GUEST_MODULES) {
      entries.push({
        name: `lib/modules/${path.basename(m)}`,
        mode: 0o100644,
        data: await readFile(path.join(modDir, m)),
      });
    }
    const initrdTmp = `${image.initrd}.tmp`;
    const kernelTmp = `${image.kernel}.tmp`;
    await writeFile(initrdTmp, gzipSync(newcArchive(entries), { level: 6 }));
    await copyFile(path.join(boot, vmlinuz), kernelTmp);
    if ((await stat(kernelTmp)).size === 0) throw new Error(`${vmlinuz} is empty`);
    await rename(kernelTmp, image.kernel);
    await rename(initrdTmp, image.initrd);
    return image;
  } finally {
    await rm(unpacked, { recursive: true, force: true });
  }
}

/** Where the guest is built: `COMPUTE_GUEST_DIR`, else `<DATA_DIR>/compute/guest` (DATA_DIR defaults to ./data). */
export function guestImageDir(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env.COMPUTE_GUEST_DIR;
  if (explicit !== undefined && explicit !== '') return path.resolve(explicit);
  return path.resolve(env.DATA_DIR ?? 'data', 'compute', 'guest');
}
