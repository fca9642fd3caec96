/**
 * A real validating resolver for DNSSEC tests: Debian's unbound in the foreground under a temp
 * directory, trusting one DS, sending the zone's queries to our server (stub-zone), plus `dig` and
 * `delv` runners. Tests skip when the binaries are missing.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.ts';

const run = promisify(execFile);
export const UNBOUND_PATH = process.env.UNBOUND ?? '/usr/sbin/unbound';

export function isUnboundAvailable(): boolean {
  return existsSync(UNBOUND_PATH) && existsSync('/usr/bin/dig') && existsSync('/usr/bin/delv');
}

export interface DigResult {
  readonly status: string;
  readonly flags: readonly string[];
  /** Record lines of the answer and authority sections, whitespace collapsed to single spaces. */
  readonly records: readonly string[];
  readonly text: string;
}

/** One query with dig (+dnssec), against host 127.0.0.1 on `port`. */
export async function dig(
  port: number,
  name: string,
  type: string,
  extra: string[] = [],
): Promise<DigResult> {
  const { stdout } = await run('dig', [
    '@127.0.0.1',
    '-p',
    String(port),
    '+dnssec',
    '+time=3',
    '+tries=2',
    '+nocmd',
    '+nostats',
    ...extra,
    name,
    type,
  ]);
  const status = /status: ([A-Z]+)/.exec(stdout)?.[1] ?? 'NONE';
  const flags = (/;; flags: ([a-z ]+);/.exec(stdout)?.[1] ?? '').trim().split(/\s+/);
  const records: string[] = [];
  let inRecords = false;
  for (const line of stdout.split('\n')) {
    if (/^;; (ANSWER|AUTHORITY) SECTION:/.test(line)) inRecords = true;
    else if (/^;; /.test(line)) inRecords = false;
    else if (inRecords && line.trim() !== '') records.push(line.trim().replace(/\s+/g, ' '));
  }
  return { status, flags, records, text: stdout };
}

export interface Unbound {
  readonly port: number;
  readonly dir: string;
  stop(): Promise<void>;
}

/**
 * Starts unbound trusting `dsRecord` for `zone`, stub-forwarding the zone (and `moreZones`, e.g.
 * a child zone served by the same server) to 127.0.0.1@`serverPort`.
 */
export async function startUnbound(
  zone: string,
  dsRecord: string,
  serverPort: number,
  moreZones: readonly string[] = [],
): Promise<Unbound> {
  if (!isUnboundAvailable()) throw new Error(`unbound, dig or delv not found (${UNBOUND_PATH})`);
  const dir = mkdtempSync(path.join(tmpdir(), 'unbound-'));
  const port = await freePort();
  const conf = path.join(dir, 'unbound.conf');
  writeFileSync(
    conf,
    [
      'server:',
      '  interface: 127.0.0.1',
      `  port: ${port}`,
      '  do-not-query-localhost: no',
      '  use-syslog: no',
      '  logfile: ""',
      '  username: ""',
      '  chroot: ""',
      `  directory: "${dir}"`,
      '  pidfile: ""',
      '  verbosity: 1',
      '  val-log-level: 2',
      '  do-ip6: no',
      `  trust-anchor: "${dsRecord}"`,
      '  module-config: "validator iterator"',
      '  qname-minimisation: no',
      // The RFC 6761 names are served locally by default; the tests' zones may use them.
      '  local-zone: "test." nodefault',
      ...[zone, ...moreZones].flatMap((z) => [
        'stub-zone:',
        `  name: "${z}"`,
        `  stub-addr: 127.0.0.1@${serverPort}`,
      ]),
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(UNBOUND_PATH, ['-d', '-c', conf], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await dig(port, 'localhost', 'A', ['+time=1', '+tries=1']);
      break;
    } catch {
      if (Date.now() > deadline || child.exitCode !== null) {
        child.kill();
        throw new Error(`unbound did not start:\n${log}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    port,
    dir,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** delv against our server with `dsRecord` as the only trust anchor: "fully validated" or not. */
export async function delv(
  serverPort: number,
  dsRecord: string,
  name: string,
  type: string,
): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'delv-'));
  const [owner, , , , tag, alg, digestType, digest] = dsRecord.split(/\s+/);
  const anchors = path.join(dir, 'anchors.conf');
  writeFileSync(
    anchors,
    `trust-anchors {\n  ${owner} static-ds ${tag} ${alg} ${digestType} "${digest}";\n};\n`,
  );
  try {
    const root = owner!.replace(/\.$/, '');
    const { stdout, stderr } = await run('delv', [
      '@127.0.0.1',
      '-p',
      String(serverPort),
      '-a',
      anchors,
      `+root=${root}`,
      name,
      type,
    ]).catch((e: { stdout: string; stderr: string }) => e);
    return `${stdout}${stderr}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
