/**
 * The object listing through our API against the same listing straight at the gateway: a one-node
 * Ceph RADOS Gateway (src/testing/ceph-gateway.ts) and the product configured with it, a trial
 * service with one bucket of 10,000 small objects, then in alternating rounds the whole bucket
 * listed page by page (1,000 keys a page) through `GET .../objects?flat=true&max_keys=1000` and
 * through ListObjectsV2 with the service's own key. Both go over node:http with keep-alive (the
 * SDK's own transport), so the difference is our server's. Figures are milliseconds per page;
 * `ratio` is ours ÷ direct of the medians (the target is 1.2 at most).
 */
import { ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { Agent, request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { RgwAdminClient } from '../src/modules/object-storage/index.ts';
import { OS, startStorageApp } from '../src/testing/object-storage-fixture.ts';
import { median } from './bench-stats.ts';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export interface StorageListingResult {
  objects: number;
  rounds: number;
  pagesPerListing: number;
  /** Milliseconds per page through our API (median, p90). */
  oursMedianMs: number;
  oursP90Ms: number;
  /** Milliseconds per page of ListObjectsV2 at the gateway (median, p90). */
  directMedianMs: number;
  directP90Ms: number;
  uploadMs: number;
  /** oursMedianMs ÷ directMedianMs. */
  ratio: number;
}

const PAGE = 1000;
const IN_FLIGHT = 32;

const p90 = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)]!;
const round2 = (x: number): number => Math.round(x * 100) / 100;

async function upload(s3: S3Client, bucket: string, count: number): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const i = next++;
      const key = `obj/${String(i).padStart(6, '0')}.txt`;
      await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: `object ${i}` }));
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

/** A GET with a keep-alive node:http agent, as the SDK's own requests go: status and JSON body. */
function getJson(agent: Agent, url: URL, token: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        } catch (e) {
          reject(e instanceof Error ? e : new Error(String(e)));
        }
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Lists the bucket through our API: the time of each page, and the keys seen. */
async function listOurs(
  api: { agent: Agent; base: string; token: string },
  path: string,
): Promise<{ ms: number[]; keys: number }> {
  const ms: number[] = [];
  let keys = 0;
  let next: string | null = null;
  do {
    const query = `?flat=true&max_keys=${PAGE}${next === null ? '' : `&token=${encodeURIComponent(next)}`}`;
    const started = performance.now();
    const res = await getJson(api.agent, new URL(`${api.base}${path}${query}`), api.token);
    ms.push(performance.now() - started);
    if (res.status !== 200) throw new Error(`listing: ${res.status} ${JSON.stringify(res.body)}`);
    const page = res.body as { items: unknown[]; next_token: string | null };
    keys += page.items.length;
    next = page.next_token;
  } while (next !== null);
  return { ms, keys };
}

/** Lists the bucket with ListObjectsV2 at the gateway: the time of each page, and the keys seen. */
async function listDirect(s3: S3Client, bucket: string): Promise<{ ms: number[]; keys: number }> {
  const ms: number[] = [];
  let keys = 0;
  let token: string | undefined;
  do {
    const started = performance.now();
    const page = await s3.send(
      new ListObjectsV2Command({
        Bucket: bucket,
        MaxKeys: PAGE,
        ...(token !== undefined ? { ContinuationToken: token } : {}),
      }),
    );
    ms.push(performance.now() - started);
    keys += page.Contents?.length ?? 0;
    token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
  } while (token !== undefined);
  return { ms, keys };
}

export async function runStorageListing(options: {
  rounds: number;
  quick: boolean;
}): Promise<StorageListingResult> {
  const objects = options.quick ? 2_000 : 10_000;
  const f = await startStorageApp();
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const { token } = await f.t.signUp();
    const sid = await f.orderTrial(token);
    const admin = new RgwAdminClient({
      url: f.gw.s3Url,
      region: f.gw.region,
      accessKey: f.gw.adminAccessKey,
      secretKey: f.gw.adminSecretKey,
    });
    const s3 = f.s3((await admin.getUser({ tenant: `svc${sid}`, uid: 'owner' })).keys[0]!);
    const made = await f.t.request('POST', `${OS}/${sid}/buckets`, { token, body: { name: 'bench' } });
    if (made.status !== 201) throw new Error(`bucket: ${made.status} ${made.text}`);
    const path = `${OS}/${sid}/buckets/${made.body.id}/objects`;

    const uploadStarted = performance.now();
    await upload(s3, 'bench', objects);
    const uploadMs = performance.now() - uploadStarted;

    const api = { agent, base: f.t.url, token };
    // One listing of each first: connections opened, code paths warm.
    await listOurs(api, path);
    await listDirect(s3, 'bench');
    const ours: number[] = [];
    const direct: number[] = [];
    let pagesPerListing = 0;
    for (let r = 0; r < options.rounds; r++) {
      const a = await listOurs(api, path);
      const b = await listDirect(s3, 'bench');
      if (a.keys !== objects || b.keys !== objects)
        throw new Error(`listed ${a.keys} / ${b.keys} of ${objects}`);
      ours.push(...a.ms);
      direct.push(...b.ms);
      pagesPerListing = a.ms.length;
    }
    const oursMedianMs = median(ours);
    const directMedianMs = median(direct);
    return {
      objects,
      rounds: options.rounds,
      pagesPerListing,
      oursMedianMs: round2(oursMedianMs),
      oursP90Ms: round2(p90(ours)),
      directMedianMs: round2(directMedianMs),
      directP90Ms: round2(p90(direct)),
      uploadMs: Math.round(uploadMs),
      ratio: round2(oursMedianMs / directMedianMs),
    };
  } finally {
    agent.destroy();
    await f.close();
  }
}

// Run alone: `npx tsx bench/storage-listing.ts [rounds] [--quick]` (PostgreSQL from DATABASE_URL, else embedded).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rounds = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 10);
  const result = await runStorageListing({ rounds, quick: process.argv.includes('--quick') });
  console.log(JSON.stringify(result, null, 2));
}
