/**
 * Test helper: the product as a real process (`npm start`'s entry point) with its JSON log read
 * line by line, for end-to-end tests of roles, workers and outages. Every process started here is
 * in `productProcesses`, for the test's afterAll to kill.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import dnsPacket from 'dns-packet';
import { queryTcp, queryUdp, type DnsExchange } from './dns-client.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export type LogLine = Record<string, unknown> & { msg?: string };

export interface Proc {
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  readonly lines: LogLine[];
  readonly exited: Promise<number | null>;
  /** Resolves with the first log line (seen or to come) that `match` accepts. */
  waitFor(match: (line: LogLine) => boolean, timeoutMs: number): Promise<LogLine>;
}

export const productProcesses: Proc[] = [];

/**
 * How the product is started: its entry point under tsx (the sources, as the tests run them), or
 * exactly as an operator does, `npm start` (which builds and runs the bundle in dist/). The latter
 * runs in its own process group, so killing it kills npm's child too.
 */
export type Launcher = 'tsx' | 'npm start';

export function startProcess(
  env: Record<string, string>,
  launcher: Launcher = 'tsx',
  options: { readonly cwd?: string } = {},
): Proc {
  // Absolute paths: the working directory may be elsewhere (a test's own `.env`).
  const [command, args] =
    launcher === 'tsx'
      ? [
          process.execPath,
          [
            '--import',
            pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href,
            path.join(ROOT, 'src/apps/main.ts'),
          ],
        ]
      : ['npm', ['start', '--silent']];
  const child = spawn(command, args, {
    cwd: options.cwd ?? ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME ?? ROOT,
      API_PORT: '0',
      DNS_PORT: '0',
      // The game edge on a free port, never the game's own (25565).
      EDGE_HOST: '127.0.0.1',
      EDGE_PORT: '0',
      LOG_LEVEL: 'info',
      // No local object storage gateway (a Ceph cluster, ~15 s and ~150 MB) unless a test asks for it.
      OBJECT_STORAGE_LOCAL: 'off',
      // No local QEMU cluster (VMs under TCG): the compute tests start the PVE server they need.
      COMPUTE_LOCAL: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: launcher === 'npm start',
  });
  const lines: LogLine[] = [];
  const waiters = new Set<{ match: (l: LogLine) => boolean; resolve: (l: LogLine) => void }>();
  let rest = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => {
    rest += chunk.toString();
    const parts = rest.split('\n');
    rest = parts.pop()!;
    for (const text of parts) {
      let line: LogLine;
      try {
        line = JSON.parse(text) as LogLine;
      } catch {
        continue;
      }
      lines.push(line);
      for (const w of waiters) {
        if (w.match(line)) {
          waiters.delete(w);
          w.resolve(line);
        }
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const proc: Proc = {
    child,
    lines,
    exited,
    waitFor(match, timeoutMs) {
      const seen = lines.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise<LogLine>((resolve, reject) => {
        const w = {
          match,
          resolve: (l: LogLine) => {
            clearTimeout(timer);
            resolve(l);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(w);
          reject(new Error(`log line not seen in ${timeoutMs} ms; stderr: ${stderr.slice(-2000)}`));
        }, timeoutMs);
        waiters.add(w);
        void exited.then((code) => {
          if (!waiters.delete(w)) return;
          clearTimeout(timer);
          reject(new Error(`exited with ${code} before the log line; stderr: ${stderr.slice(-2000)}`));
        });
      });
    },
  };
  productProcesses.push(proc);
  return proc;
}

/** Kills what is still running of `productProcesses` and waits for each to exit. */
export async function killProductProcesses(): Promise<void> {
  for (const p of productProcesses.splice(0)) {
    if (p.child.exitCode === null && p.child.signalCode === null) {
      try {
        // The whole group when it has one (`npm start`), so npm's child does not outlive it.
        process.kill(-p.child.pid!, 'SIGKILL');
      } catch {
        p.child.kill('SIGKILL');
      }
    }
    await p.exited;
  }
}

let qid = 1;
export function aQuery(name: string): Buffer {
  qid = (qid % 0xffff) + 1;
  return dnsPacket.encode({ type: 'query', id: qid, questions: [{ name, type: 'A', class: 'IN' }] });
}

/** The A addresses answered for `name` (fresh socket or connection each time), or null for none. */
export async function ask(
  port: number,
  name: string,
  transport: 'udp' | 'tcp',
  timeoutMs = 500,
  source?: string,
): Promise<string[] | null> {
  const ex: DnsExchange =
    transport === 'udp'
      ? await queryUdp(aQuery(name), {
          host: '127.0.0.1',
          port,
          timeoutMs,
          retries: 0,
          ...(source !== undefined ? { source } : {}),
        })
      : await queryTcp(aQuery(name), { host: '127.0.0.1', port, timeoutMs }).catch(() => ({
          response: null,
          decoded: null,
        }));
  if (ex.decoded === null) return null;
  return ((ex.decoded.answers ?? []) as { type: string; data: unknown }[])
    .filter((a) => a.type === 'A')
    .map((a) => String(a.data))
    .sort();
}

/**
 * Calls the API of a product process: JSON in and out, the bearer token when given; a status of
 * 300 or more throws with the answer's text.
 */
export async function callApi<T>(
  apiUrl: string,
  method: string,
  p: string,
  body?: unknown,
  bearer?: string,
): Promise<T> {
  const res = await fetch(apiUrl + p, {
    method,
    headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}
