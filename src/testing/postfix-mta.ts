import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, chownSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePorts } from './free-port.ts';

const run = promisify(execFile);

/**
 * Debian's Postfix as a real MTA for tests, in a configuration directory of its own (queue, data,
 * log) on a free loopback port, relaying everything to `relayHost:relayPort` — except the domains
 * of `transports`, delivered to their own server (the product's inbound listener for the bounce
 * domain, as its MX would in production). Retries and delay notices are quick (seconds, not
 * hours) so a test sees a DELAY DSN. Needs root (master drops to the postfix user) and the
 * `postfix` package (.ci/run installs it). Several instances can run at once.
 */
export interface PostfixMta {
  readonly host: string;
  readonly port: number;
  readonly url: string;
  readonly dir: string;
  /** Retries the deferred queue now (postqueue -f). */
  flush(): Promise<void>;
  /** The queue as postqueue -p lists it. */
  queue(): Promise<string>;
  maillog(): string;
  close(): Promise<void>;
}

export async function startPostfix(options: {
  relayHost: string;
  relayPort: number;
  transports?: Record<string, { host: string; port: number }>;
  myhostname?: string;
}): Promise<PostfixMta> {
  const dir = mkdtempSync(path.join(tmpdir(), 'postfix-test-'));
  const [port] = (await freePorts(1)) as [number];
  const queueDir = path.join(dir, 'queue');
  const dataDir = path.join(dir, 'data');
  mkdirSync(queueDir, { mode: 0o755 });
  mkdirSync(dataDir, { mode: 0o700 });
  const { stdout: uid } = await run('id', ['-u', 'postfix']);
  const { stdout: gid } = await run('id', ['-g', 'postfix']);
  chownSync(dataDir, Number(uid), Number(gid));
  const transports = Object.entries(options.transports ?? {})
    .map(([domain, t]) => `${domain}=smtp:[${t.host}]:${t.port}`)
    .join(', ');
  const name = `pftest${port}`;
  writeFileSync(
    path.join(dir, 'main.cf'),
    [
      'compatibility_level = 3.6',
      `queue_directory = ${queueDir}`,
      `data_directory = ${dataDir}`,
      'command_directory = /usr/sbin',
      'daemon_directory = /usr/lib/postfix/sbin',
      'meta_directory = /etc/postfix',
      'shlib_directory = /usr/lib/postfix',
      'mail_owner = postfix',
      'setgid_group = postdrop',
      `myhostname = ${options.myhostname ?? 'mta.relay.test'}`,
      'mydestination =',
      'inet_interfaces = 127.0.0.1',
      'inet_protocols = ipv4',
      'mynetworks = 127.0.0.0/8',
      'smtpd_relay_restrictions = permit_mynetworks, reject',
      `relayhost = [${options.relayHost}]:${options.relayPort}`,
      ...(transports === '' ? [] : [`transport_maps = inline:{ ${transports} }`]),
      'smtp_dns_support_level = disabled',
      'smtp_tls_security_level = none',
      'alias_maps =',
      'alias_database =',
      'local_recipient_maps =',
      'smtputf8_enable = no',
      `syslog_name = ${name}`,
      `maillog_file = ${path.join(dir, 'maillog')}`,
      `maillog_file_prefixes = ${tmpdir()}, /var, /dev/stdout`,
      'queue_run_delay = 1s',
      'minimal_backoff_time = 1s',
      'maximal_backoff_time = 2s',
      'delay_warning_time = 1s',
      'smtp_connect_timeout = 5s',
      '',
    ].join('\n'),
  );
  // Every service unchrooted (the test directory is not a chroot jail); smtpd on the free port.
  writeFileSync(
    path.join(dir, 'master.cf'),
    [
      `127.0.0.1:${port} inet n - n - - smtpd`,
      'pickup    unix  n       -       n       60      1       pickup',
      'cleanup   unix  n       -       n       -       0       cleanup',
      'qmgr      unix  n       -       n       300     1       qmgr',
      'tlsmgr    unix  -       -       n       1000?   1       tlsmgr',
      'rewrite   unix  -       -       n       -       -       trivial-rewrite',
      'bounce    unix  -       -       n       -       0       bounce',
      'defer     unix  -       -       n       -       0       bounce',
      'trace     unix  -       -       n       -       0       bounce',
      'verify    unix  -       -       n       -       1       verify',
      'flush     unix  n       -       n       1000?   0       flush',
      'proxymap  unix  -       -       n       -       -       proxymap',
      'smtp      unix  -       -       n       -       -       smtp',
      'relay     unix  -       -       n       -       -       smtp',
      'showq     unix  n       -       n       -       -       showq',
      'error     unix  -       -       n       -       -       error',
      'retry     unix  -       -       n       -       -       error',
      'discard   unix  -       -       n       -       -       discard',
      'local     unix  -       n       n       -       -       local',
      'anvil     unix  -       -       n       -       1       anvil',
      'scache    unix  -       -       n       -       1       scache',
      'postlog   unix-dgram n  -       n       -       1       postlogd',
      '',
    ].join('\n'),
  );
  const postfix = (...args: string[]) => run('/usr/sbin/postfix', ['-c', dir, ...args]);
  await postfix('set-permissions').catch(() => {});
  try {
    await postfix('check');
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`postfix check failed: ${(error as { stderr?: string }).stderr ?? String(error)}`);
  }
  const master: ChildProcess = spawn('/usr/lib/postfix/sbin/master', ['-c', dir, '-d'], {
    env: { ...process.env, MAIL_CONFIG: dir },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  master.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<void>((resolve) => master.once('exit', () => resolve()));
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (master.exitCode !== null || Date.now() > deadline) {
      master.kill('SIGKILL');
      const log = readLog(dir);
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`postfix did not start: ${stderr}\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    host: '127.0.0.1',
    port,
    url: `smtp://127.0.0.1:${port}`,
    dir,
    async flush() {
      await run('/usr/sbin/postqueue', ['-c', dir, '-f']);
    },
    async queue() {
      return (await run('/usr/sbin/postqueue', ['-c', dir, '-p'])).stdout;
    },
    maillog: () => readLog(dir),
    async close() {
      if (master.exitCode === null) {
        master.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (master.exitCode === null) master.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function readLog(dir: string): string {
  try {
    return readFileSync(path.join(dir, 'maillog'), 'utf8');
  } catch {
    return '';
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port }, () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}
