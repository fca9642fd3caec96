/**
 * Presigned object URLs per second on one core: the presigner of object storage signing 10,000
 * URLs (GET, PUT with a content type, DELETE in turn, distinct keys) with one fixed key for a fixed
 * public endpoint — no gateway is involved. Figures are the median over several rounds.
 * `npx tsx bench/storage-presign.ts [--quick]`.
 */
import { pathToFileURL } from 'node:url';
import { Presigner, type PresignMethod } from '../src/modules/object-storage/index.ts';
import { median } from './bench-stats.ts';

const COUNT = 10_000;
const ROUNDS = 7;
const QUICK_ROUNDS = 3;
const METHODS: readonly PresignMethod[] = ['GET', 'PUT', 'DELETE'];
const CREDENTIALS = {
  accessKey: 'AKIAEXAMPLEEXAMPLE23',
  secretKey: 'c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNl',
};
const ENDPOINT = 'https://fra.s3.example.com';

export interface PresignFigures {
  /** URLs per round. */
  readonly count: number;
  /** Median seconds of a round. */
  readonly seconds: number;
  /** Median URLs per second (wall clock). */
  readonly perSecond: number;
  /** Median URLs per second of this process's CPU time: the figure on a machine busy with others. */
  readonly perCpuSecond: number;
}

interface Round {
  readonly wall: number;
  readonly cpu: number;
}

async function round(presigner: Presigner, signingDate: Date): Promise<Round> {
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  for (let i = 0; i < COUNT; i++) {
    const method = METHODS[i % METHODS.length]!;
    await presigner.presign(CREDENTIALS, {
      method,
      endpoint: ENDPOINT,
      bucket: 'photos',
      key: `uploads/2026/11/${i}/image ${i}.jpg`,
      expiresIn: 900,
      ...(method === 'PUT' ? { contentType: 'image/jpeg' } : {}),
      signingDate,
    });
  }
  const used = process.cpuUsage(cpu);
  return { wall: Number(process.hrtime.bigint() - started) / 1e9, cpu: (used.user + used.system) / 1e6 };
}

export async function runStoragePresign(options: { quick: boolean }): Promise<PresignFigures> {
  const presigner = new Presigner('us-east-1');
  const signingDate = new Date();
  await round(presigner, signingDate); // warm-up: JIT and the signing-key cache
  const rounds: Round[] = [];
  for (let r = 0; r < (options.quick ? QUICK_ROUNDS : ROUNDS); r++)
    rounds.push(await round(presigner, signingDate));
  const seconds = median(rounds.map((r) => r.wall));
  const cpu = median(rounds.map((r) => r.cpu));
  return {
    count: COUNT,
    seconds,
    perSecond: Math.round(COUNT / seconds),
    perCpuSecond: Math.round(COUNT / cpu),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const figures = await runStoragePresign({ quick: process.argv.includes('--quick') });
  console.log(JSON.stringify(figures));
}
