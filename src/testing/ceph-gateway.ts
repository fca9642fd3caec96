/**
 * A one-node Ceph cluster with a RADOS Gateway (S3 and admin ops API) for tests: one monitor, one
 * OSD keeping its objects in memory (memstore), one radosgw on a free loopback port, all with
 * `auth none`, their configuration, data, sockets and logs in a fresh temp dir. Needs the Debian
 * packages ceph-mon, ceph-osd, radosgw and ceph-common (.ci/run installs them); without them it
 * throws. `close()` kills the daemons by PID (rgw, then OSD, then monitor) and removes the dir.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CephNode, cephBinaries } from '../modules/object-storage/index.ts';
import { freePorts } from './free-port.ts';

export { CEPH_BINARIES } from '../modules/object-storage/index.ts';
/** The region requests are signed for; the gateway checks signatures in whatever region they name. */
export const CEPH_GATEWAY_REGION = 'us-east-1';

export interface CephGateway {
  /** The S3 endpoint (path-style), also the base of the admin ops API (`/admin/...`). */
  readonly s3Url: string;
  readonly region: string;
  /** Keys of a gateway user with the users, buckets, usage and metadata caps. */
  readonly adminAccessKey: string;
  readonly adminSecretKey: string;
  /** PIDs of the monitor, the OSD and the gateway. */
  readonly pids: { readonly mon: number; readonly osd: number; readonly rgw: number };
  readonly dir: string;
  /** Milliseconds from the call to a gateway answering HTTP with an admin user. */
  readonly startMs: number;
  close(): Promise<void>;
}

export async function startCephGateway(): Promise<CephGateway> {
  const bin = cephBinaries();
  const started = Date.now();
  const dir = await mkdtemp(path.join(tmpdir(), 'ceph-gateway-'));
  const [monPort, rgwPort] = (await freePorts(2)) as [number, number];
  const node = new CephNode(bin, { dir, fsid: randomUUID(), monPort, rgwPort, store: { kind: 'memstore' } });
  const close = async (): Promise<void> => {
    await node.stop();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await node.writeConfig();
    await node.createMon();
    node.startMon();
    await node.startOsd(await node.createOsd());
    await node.startRgw();
    const key = await node.createAdminUser();
    return {
      s3Url: node.url,
      region: CEPH_GATEWAY_REGION,
      adminAccessKey: key.accessKey,
      adminSecretKey: key.secretKey,
      pids: node.pids(),
      dir,
      startMs: Date.now() - started,
      close,
    };
  } catch (e) {
    const report = node.failure(e as Error);
    await close();
    throw new Error(report, { cause: e });
  }
}
