/**
 * Test/bench helper: Debian's haproxy (`/usr/sbin/haproxy`, or `HAPROXY=/path`) as a plain TCP
 * forwarder, in the foreground (`-db`) as a child process with a generated config in a temp dir:
 * one frontend on a free port to one server. Optionally it reads a PROXY header on the way in
 * (`accept-proxy`) and writes a PROXY v2 header on the way out (`send-proxy-v2`), and logs each
 * connection as `client=<%ci>:<%cp> frontend=<%fi>:<%fp>` on its stdout. `start` resolves once the
 * frontend accepts connections; `stop` kills the process by its PID and removes the dir.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.ts';

export const HAPROXY_PATH = process.env.HAPROXY ?? '/usr/sbin/haproxy';
const START_TIMEOUT_MS = 10_000;
const STOP_GRACE_MS = 3_000;
const LOG_LIMIT = 200_000;

export interface HaproxyTcpOptions {
  readonly target: { readonly host: string; readonly port: number };
  /** Read a PROXY header (v1 or v2) from every client before its stream. */
  readonly acceptProxy?: boolean;
  /** Send a PROXY v2 header to the target before the stream. */
  readonly sendProxyV2?: boolean;
  /** Defaults to a free port on 127.0.0.1. */
  readonly port?: number;
  /** Connections held at once (haproxy's `maxconn`, global and frontend). */
  readonly maxConnections?: number;
}

export interface HaproxyTcp {
  readonly port: number;
  readonly pid: number;
  /** What haproxy wrote to stdout and stderr so far (its connection log lines among it). */
  log(): string;
  stop(): Promise<void>;
}

function config(o: HaproxyTcpOptions, port: number): string {
  const maxconn = o.maxConnections ?? 4096;
  return [
    'global',
    `  maxconn ${maxconn}`,
    '  nbthread 1',
    '  log stdout format raw local0 info',
    'defaults',
    '  mode tcp',
    '  log global',
    '  timeout connect 5s',
    '  timeout client 300s',
    '  timeout server 300s',
    'frontend players',
    `  bind 127.0.0.1:${port}${o.acceptProxy === true ? ' accept-proxy' : ''}`,
    `  maxconn ${maxconn}`,
    '  log-format "client=%ci:%cp frontend=%fi:%fp"',
    '  default_backend upstream',
    'backend upstream',
    `  server up ${o.target.host}:${o.target.port}${o.sendProxyV2 === true ? ' send-proxy-v2' : ''}`,
    '',
  ].join('\n');
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

export async function startHaproxyTcp(options: HaproxyTcpOptions): Promise<HaproxyTcp> {
  if (!existsSync(HAPROXY_PATH))
    throw new Error(`haproxy not found at ${HAPROXY_PATH} (apt package haproxy)`);
  const dir = await mkdtemp(path.join(tmpdir(), 'haproxy-'));
  const port = options.port ?? (await freePort());
  const file = path.join(dir, 'haproxy.cfg');
  await writeFile(file, config(options, port));
  const child: ChildProcess = spawn(HAPROXY_PATH, ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  const keep = (d: Buffer): void => {
    if (text.length < LOG_LIMIT) text += d.toString();
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(child.pid!, 'SIGTERM');
      const timer = setTimeout(
        () => child.pid !== undefined && process.kill(child.pid, 'SIGKILL'),
        STOP_GRACE_MS,
      );
      await exited;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`haproxy did not start: ${text.trim().split('\n').slice(-5).join(' | ')}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { port, pid: child.pid!, log: () => text, stop };
}
