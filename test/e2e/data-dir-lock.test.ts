import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** tsx's loader by path: the process runs in a directory of its own, away from node_modules. */
const TSX = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

interface Started {
  readonly child: ChildProcess;
  /** Resolves with the API's URL once it listens, or rejects with the exit code and output. */
  readonly listening: Promise<string>;
  readonly exited: Promise<{ code: number | null; stderr: string }>;
}

/** `npm start` as an operator runs it, from `cwd`, with DATA_DIR as given. */
function start(cwd: string, dataDir: string): Started {
  const child = spawn(process.execPath, ['--import', TSX, path.join(ROOT, 'src/apps/main.ts')], {
    cwd,
    env: {
      PATH: process.env.PATH,
      OBJECT_STORAGE_LOCAL: 'off',
      COMPUTE_LOCAL: 'off',
      API_PORT: '0',
      DNS_PORT: '0',
      EDGE_PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stderr })),
  );
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /"url":"(http:\/\/[^"]+)","msg":"API listening"/.exec(out);
      if (m) resolve(m[1]!);
    });
    void exited.then(({ code }) => reject(new Error(`exited with ${code}: ${stderr}${out}`)));
  });
  listening.catch(() => undefined);
  return { child, listening, exited };
}

describe('DATA_DIR belongs to one process', () => {
  const cwd = mkdtempSync(path.join(tmpdir(), 'data-dir-'));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) c.kill('SIGKILL');
    rmSync(cwd, { recursive: true, force: true });
  });

  it('refuses a second start on the same DATA_DIR in one line with exit code 2, and keeps the data', async () => {
    const first = start(cwd, './data');
    children.push(first.child);
    const url = await first.listening;
    const second = start(cwd, './data');
    children.push(second.child);
    const refused = await second.exited;
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `DATA_DIR ./data is in use by process ${first.child.pid}; stop it or set another DATA_DIR\n`,
    );
    // The first goes on, its data intact; stopped, it frees the directory for the next start.
    const registered = await fetch(`${url}/api/v1/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'kept@example.com', password: 'a long password' }),
    });
    expect(registered.status).toBe(201);
    first.child.kill('SIGTERM');
    expect((await first.exited).code).toBe(0);
    expect(existsSync(path.join(cwd, 'data', 'data.lock'))).toBe(false);
    const third = start(cwd, './data');
    children.push(third.child);
    const again = await third.listening;
    const login = await fetch(`${again}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'kept@example.com', password: 'a long password' }),
    });
    expect(login.status).toBe(200);
    third.child.kill('SIGTERM');
    expect((await third.exited).code).toBe(0);
  }, 120_000);

  it('takes over the lock of a process that is gone (killed without a chance to clean up)', async () => {
    const first = start(cwd, './stale');
    children.push(first.child);
    await first.listening;
    first.child.kill('SIGKILL');
    await first.exited;
    expect(existsSync(path.join(cwd, 'stale', 'data.lock'))).toBe(true);
    const next = start(cwd, './stale');
    children.push(next.child);
    await next.listening;
    next.child.kill('SIGTERM');
    expect((await next.exited).code).toBe(0);
  }, 120_000);

  /** Field 22 of /proc/<pid>/stat: when the process started, in clock ticks since boot (proc(5)). */
  function startTime(pid: number): string {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
  }

  it('takes over a lock whose PID now belongs to another process (same PID, another start time)', async () => {
    // A crashed product's PID handed to an unrelated process: alive, but not the lock's owner.
    const other = spawn('sleep', ['120'], { stdio: 'ignore' });
    children.push(other);
    const dir = path.join(cwd, 'reused');
    mkdirSync(dir, { recursive: true });
    const otherStart = Number(startTime(other.pid!));
    writeFileSync(path.join(dir, 'data.lock'), `${other.pid} ${otherStart - 1}\n`);
    const next = start(cwd, './reused');
    children.push(next.child);
    await next.listening;
    // The lock is the new owner's now, with what identifies it beyond its PID.
    expect(readFileSync(path.join(dir, 'data.lock'), 'utf8')).toBe(
      `${next.child.pid} ${startTime(next.child.pid!)}\n`,
    );
    next.child.kill('SIGTERM');
    expect((await next.exited).code).toBe(0);
    // The same process with its own start time holds the lock: the start is refused.
    writeFileSync(path.join(dir, 'data.lock'), `${other.pid} ${otherStart}\n`);
    const refused = start(cwd, './reused');
    children.push(refused.child);
    const { code, stderr } = await refused.exited;
    expect(code).toBe(2);
    expect(stderr).toBe(
      `DATA_DIR ./reused is in use by process ${other.pid}; stop it or set another DATA_DIR\n`,
    );
    other.kill('SIGKILL');
  }, 120_000);

  it('says which directory cannot be opened and what to do, instead of a WASM abort', async () => {
    const broken = path.join(cwd, 'broken', 'pglite');
    mkdirSync(broken, { recursive: true });
    writeFileSync(path.join(broken, 'PG_VERSION'), '17\n');
    mkdirSync(path.join(broken, 'base'));
    writeFileSync(path.join(broken, 'global'), 'not a directory');
    const run = start(cwd, './broken');
    children.push(run.child);
    const { code, stderr } = await run.exited;
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^the embedded database in \.\/broken\/pglite cannot be opened \(.*\); restore that directory from a backup, or move it away to start with an empty database\n$/,
    );
    expect(existsSync(path.join(cwd, 'broken', 'data.lock'))).toBe(false);
  }, 120_000);
});
