/**
 * The container image, rehearsed without Docker (this machine has no Docker daemon nor registry):
 * every stage of the Dockerfile is replayed in a temp dir standing for /app — each COPY copies
 * what it names (minus .dockerignore), each `npm` RUN runs — then the final stage's CMD starts
 * with the Dockerfile's ENV, its HEALTHCHECK command must pass, DNS must answer, and the
 * STOPSIGNAL must end it with exit code 0. What cannot be replayed here is the system setup
 * (apt-get, setcap, the non-root user), which the test only checks is all those RUNs do.
 *
 * Runs in the embedded pass only (`npm test` without DATABASE_URL): the image does not depend on
 * the database, and CI runs the suite twice.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import dnsPacket from 'dns-packet';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeOrNull, queryUdp } from '../../src/testing/dns-client.ts';
import {
  copyArgs,
  envArgs,
  healthcheckCommand,
  parseDockerfile,
  type DockerStage,
} from '../../src/testing/dockerfile-steps.ts';
import { freePorts } from '../../src/testing/free-port.ts';
import { loadConfig } from '../../src/kernel/config/load-config.ts';
import { CONFIG_SECTIONS } from '../../src/apps/platform-modules.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const APP = '/app';
const READY_TIMEOUT_MS = 60_000;
const NPM_TIMEOUT_MS = 240_000;

const ignored = readFileSync(path.join(ROOT, '.dockerignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l !== '' && !l.startsWith('#'));

/** True when `rel` (relative to the build context) is left out of the context by .dockerignore. */
function isIgnored(rel: string): boolean {
  return ignored.some((p) =>
    p.startsWith('*') ? rel.endsWith(p.slice(1)) : rel === p || rel.startsWith(`${p}/`),
  );
}

interface Rehearsal {
  dirs: Map<string, string>;
  env: Record<string, string>;
  cmd: string[];
  healthcheck: string;
  stopSignal: NodeJS.Signals;
  skippedRuns: string[];
}

/** Replays the stages: COPY and `npm` RUN for real; returns what starting the image needs. */
function rehearse(stages: DockerStage[]): Rehearsal {
  const r: Rehearsal = {
    dirs: new Map(),
    env: {},
    cmd: [],
    healthcheck: '',
    stopSignal: 'SIGTERM',
    skippedRuns: [],
  };
  for (const stage of stages) {
    const dir = mkdtempSync(path.join(tmpdir(), `image-${stage.name}-`));
    r.dirs.set(stage.name, dir);
    for (const { op, args } of stage.instructions) {
      if (op === 'WORKDIR') expect(args).toBe(APP);
      else if (op === 'ENV') Object.assign(r.env, envArgs(args));
      else if (op === 'COPY') {
        const { from, sources, dest } = copyArgs(args);
        const into = path.join(dir, dest);
        for (const source of sources) {
          const base = from === null ? ROOT : r.dirs.get(from)!;
          const rel = from === null ? source : path.relative(APP, source);
          const target =
            sources.length > 1 || dest.endsWith('/') ? path.join(into, path.basename(rel)) : into;
          expect(existsSync(path.join(base, rel)), `COPY source ${source}`).toBe(true);
          cpSync(path.join(base, rel), target, {
            recursive: true,
            filter: (src) => from !== null || !isIgnored(path.relative(ROOT, src)),
          });
        }
      } else if (op === 'RUN') {
        if (!args.startsWith('npm ')) {
          r.skippedRuns.push(args);
          continue;
        }
        const run = spawnSync('sh', ['-c', args], {
          cwd: dir,
          env: { PATH: process.env.PATH, HOME: process.env.HOME, npm_config_prefer_offline: 'true' },
          encoding: 'utf8',
          timeout: NPM_TIMEOUT_MS,
        });
        expect(run.status, `${args}\n${run.stdout}\n${run.stderr}`).toBe(0);
      } else if (op === 'CMD') r.cmd = JSON.parse(args) as string[];
      else if (op === 'HEALTHCHECK') r.healthcheck = healthcheckCommand(args);
      else if (op === 'STOPSIGNAL') r.stopSignal = args as NodeJS.Signals;
    }
  }
  return r;
}

function exitCode(cmd: string, cwd: string, env: NodeJS.ProcessEnv): Promise<number | null> {
  return new Promise((resolve) => {
    const c = spawn('sh', ['-c', cmd], { cwd, env, stdio: 'ignore' });
    c.on('exit', (code) => resolve(code));
  });
}

describe.skipIf(process.env.DATABASE_URL !== undefined)('container image (Dockerfile rehearsed)', () => {
  let rehearsal: Rehearsal | null = null;
  afterAll(() => {
    for (const dir of rehearsal?.dirs.values() ?? []) rmSync(dir, { recursive: true, force: true });
  });

  it('builds, passes its HEALTHCHECK, answers DNS, and stops on STOPSIGNAL with exit 0', async () => {
    const stages = parseDockerfile(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'));
    expect(stages.length).toBeGreaterThanOrEqual(2);
    rehearsal = rehearse(stages);
    const final = rehearsal.dirs.get(stages.at(-1)!.name)!;
    // Only system setup is left out of the rehearsal.
    for (const run of rehearsal.skippedRuns) expect(run).toMatch(/^apt-get /);
    expect(stages.at(-1)!.instructions.some((i) => i.op === 'USER' && i.args !== 'root')).toBe(true);
    // The deps stage has a compiler: the native batch-UDP addon is in the image.
    expect(existsSync(path.join(final, 'native/build/Release/dns_udp_batch.node'))).toBe(true);

    const [apiPort, dnsPort] = (await freePorts(2)) as [number, number];
    const dataDir = mkdtempSync(path.join(tmpdir(), 'image-data-'));
    rehearsal.dirs.set('data', dataDir);
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      ...rehearsal.env,
      // What `docker run -e` / the compose file set; ports moved off 53 and 8080 for the test.
      DATA_DIR: dataDir,
      API_PORT: String(apiPort),
      DNS_PORT: String(dnsPort),
      AUTH_SECRET: randomBytes(32).toString('hex'),
      DNSSEC_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    };
    expect(rehearsal.cmd[0]).toBe('node');
    const child = spawn(process.execPath, rehearsal.cmd.slice(1), { cwd: final, env, stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const deadline = Date.now() + READY_TIMEOUT_MS;
      let healthy = false;
      while (!healthy && Date.now() < deadline) {
        healthy = (await exitCode(rehearsal.healthcheck, final, env)) === 0;
        if (!healthy) await new Promise((r) => setTimeout(r, 250));
      }
      expect(healthy, 'HEALTHCHECK passes').toBe(true);
      const query = dnsPacket.encode({
        type: 'query',
        id: 7,
        questions: [{ type: 'A', name: 'example.com' }],
      });
      const res = await queryUdp(query, { host: '127.0.0.1', port: dnsPort, timeoutMs: 2000 });
      expect((decodeOrNull(res.response) as { rcode?: string } | null)?.rcode).toBe('REFUSED');
      child.kill(rehearsal.stopSignal);
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  }, 300_000);
});

describe('compose example', () => {
  it('gives each engine service settings the configuration accepts, one service per role', () => {
    const text = readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');
    // The shared block (x-engine-environment) plus each service's own `KEY: value` lines.
    const shared: Record<string, string> = {};
    const block = /x-engine-environment: &engine-environment\n((?: {2}[A-Z_]+: .*\n)+)/.exec(text);
    expect(block).not.toBeNull();
    for (const [, k, v] of block![1]!.matchAll(/ {2}([A-Z_]+): '?([^'\n]*)'?/g)) shared[k!] = v!;
    const roles = [...text.matchAll(/ROLE: (\w+)\n((?: {6}[A-Z_]+: .*\n)*)/g)];
    expect(roles.map((m) => m[1]).sort()).toEqual(['api', 'checker', 'dns']);
    for (const [, role, rest] of roles) {
      const env: Record<string, string> = { ...shared, ROLE: role! };
      for (const [, k, v] of rest!.matchAll(/ {6}([A-Z_]+): '?([^'\n]*)'?/g)) env[k!] = v!;
      // AUTH_SECRET and DNSSEC_KEY_ENCRYPTION_KEY come from .env (see .env.example).
      env.AUTH_SECRET = 'x'.repeat(32);
      env.DNSSEC_KEY_ENCRYPTION_KEY = randomBytes(32).toString('base64');
      const config = loadConfig(env, CONFIG_SECTIONS);
      expect(config.role).toBe(role);
      expect(config.databaseUrl).toMatch(/^postgres:/);
      expect(config.redisUrl).toMatch(/^redis:/);
    }
  });
});
