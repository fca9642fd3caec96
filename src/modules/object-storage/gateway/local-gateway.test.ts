import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../kernel/log/logger.ts';
import { RgwAdminClient } from './rgw-admin-client.ts';
import { startLocalGateway, type LocalGateway } from './local-gateway.ts';

// The pinned SDK runs on Node 20; it only warns that its releases of 2027 will not.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const owner = { tenant: 'svc1', uid: 'owner' };
const log = createLogger('warn');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function daemonPids(dir: string): number[] {
  return Object.values(JSON.parse(readFileSync(path.join(dir, 'run', 'pids.json'), 'utf8')) as object);
}

function s3Of(url: string, key: { access_key: string; secret_key: string }): S3Client {
  return new S3Client({
    endpoint: url,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: key.access_key, secretAccessKey: key.secret_key },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** Starts the gateway on `dir` in another Node process, answers its daemons' PIDs, SIGKILLs it. */
async function startInProcessThenKillIt(dir: string): Promise<number[]> {
  const script = `import { startLocalGateway } from ${JSON.stringify(pathToFileURL(path.join(ROOT, 'src/modules/object-storage/gateway/local-gateway.ts')).href)};
import { createLogger } from ${JSON.stringify(pathToFileURL(path.join(ROOT, 'src/kernel/log/logger.ts')).href)};
await startLocalGateway({ dir: ${JSON.stringify(dir)}, log: createLogger('warn') });
console.log('READY');
setInterval(() => {}, 1000);`;
  const loader = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
  const child = spawn(process.execPath, ['--import', loader, '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('READY') && resolve());
    child.once('exit', (code) => reject(new Error(`exited with ${code} before starting the gateway`)));
  });
  const pids = daemonPids(dir);
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
  return pids;
}

async function waitUntilGone(pids: number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  while (pids.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return pids.filter(alive);
}

describe.skipIf(process.env.DATABASE_URL === undefined)('the local gateway under a data dir', () => {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), 'local-gateway-')), 'objectstore');
  let gateway: LocalGateway | undefined;

  afterAll(async () => {
    await gateway?.stop();
    rmSync(path.dirname(dir), { recursive: true, force: true });
  }, 60_000);

  it('keeps objects, fsid and ports across a restart on bluestore in a sparse file, and leaves no daemon running', async () => {
    gateway = await startLocalGateway({ dir, log });
    console.info(`local gateway created in ${gateway.startMs} ms`);
    expect(gateway.created).toBe(true);
    const first = { url: gateway.url, state: readFileSync(path.join(dir, 'state.json'), 'utf8') };
    expect(statSync(path.join(dir, 'state.json')).mode & 0o777).toBe(0o600);
    const admin = new RgwAdminClient({
      url: gateway.url,
      accessKey: gateway.adminAccessKey,
      secretKey: gateway.adminSecretKey,
    });
    await admin.createUser(owner, 'Owner of svc1');
    const key = await admin.createKey(owner);
    const body = Buffer.alloc(300 * 1024, 'x');
    const s3 = s3Of(gateway.url, key);
    try {
      await s3.send(new CreateBucketCommand({ Bucket: 'svc1:photos' }));
      await s3.send(new PutObjectCommand({ Bucket: 'svc1:photos', Key: 'cat.jpg', Body: body }));
    } finally {
      s3.destroy();
    }
    const block = statSync(path.join(dir, 'block.img'));
    expect(block.size).toBe(20 * 1024 ** 3);
    expect(block.blocks * 512).toBeLessThan(block.size / 10);

    const firstPids = daemonPids(dir);
    expect(firstPids.every(alive)).toBe(true);
    await gateway.stop();
    gateway = undefined;
    expect(firstPids.filter(alive)).toEqual([]);

    gateway = await startLocalGateway({ dir, log });
    console.info(`local gateway restarted in ${gateway.startMs} ms`);
    expect(gateway.created).toBe(false);
    expect(gateway.url).toBe(first.url);
    expect(readFileSync(path.join(dir, 'state.json'), 'utf8')).toBe(first.state);
    const again = s3Of(gateway.url, key);
    try {
      const got = await again.send(new GetObjectCommand({ Bucket: 'svc1:photos', Key: 'cat.jpg' }));
      expect(Buffer.from(await got.Body!.transformToByteArray()).equals(body)).toBe(true);
    } finally {
      again.destroy();
    }
    const secondPids = daemonPids(dir);
    await gateway.stop();
    gateway = undefined;
    expect(secondPids.filter(alive)).toEqual([]);
  }, 180_000);

  it('takes its daemons down with it when the process running it is killed', async () => {
    const pids = await startInProcessThenKillIt(dir);
    expect(pids).toHaveLength(3);
    expect(await waitUntilGone(pids, 5_000)).toEqual([]);
  }, 120_000);
});
