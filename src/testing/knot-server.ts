/**
 * Test/bench helper: runs a real Knot DNS (`knotd`) in the foreground as a child process, with
 * its config, zone files, rundir and storage in a fresh temp dir, on a free port, as the current
 * user. `start` resolves once Knot answers an SOA query for the first zone authoritatively
 * (polled with real queries, bounded); `stop` kills it and removes the dir.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import dnsPacket from 'dns-packet';
import { queryUdp } from './dns-client.ts';
import { freePort } from './free-port.ts';

export const KNOTD_PATH = process.env.KNOTD ?? '/usr/sbin/knotd';
/** Bound on waiting for Knot to load its zones and answer. */
export const KNOT_START_TIMEOUT_MS = 15_000;
const KNOT_POLL_TIMEOUT_MS = 200;
const KNOT_STOP_GRACE_MS = 3_000;
/** Bound on the stderr (log) text kept. */
const KNOT_LOG_LIMIT = 200_000;

export interface KnotZone {
  /** Zone apex, with or without trailing dot. */
  domain: string;
  /** Zone file text (RFC 1035 §5 master file format); omitted for a secondary zone. */
  text?: string;
  /** Secondary zone: the `remote` id(s) it transfers from (Knot `master:`). */
  master?: string;
  /** `acl` ids of the zone (e.g. one allowing NOTIFY from the primary). */
  acl?: readonly string[];
  /** Knot signs the zone itself (`dnssec-signing: on`) under this `policy` id. */
  dnssecPolicy?: string;
  /** Knot zone options appended verbatim (e.g. `dnssec-signing: on`), indented by us. */
  options?: readonly string[];
}

/** Knot `policy:` (automatic signing), e.g. `{ id: 'p256', algorithm: 'ecdsap256sha256', nsec3: 'off' }`. */
export interface KnotPolicy {
  id: string;
  algorithm: string;
  nsec3?: 'on' | 'off';
  'nsec3-iterations'?: number;
  'nsec3-salt-length'?: number;
  'nsec3-opt-out'?: 'on' | 'off';
  /** E.g. `14d`. */
  'rrsig-lifetime'?: string;
  'rrsig-refresh'?: string;
}

/** Knot `key:` (TSIG, RFC 8945). */
export interface KnotKey {
  id: string;
  algorithm: string;
  /** Base64. */
  secret: string;
}

/** Knot `remote:`, e.g. a primary at `127.0.0.1@5300`. */
export interface KnotRemote {
  id: string;
  address: string;
  key?: string;
}

/** Knot `acl:`. */
export interface KnotAcl {
  id: string;
  address: string;
  action: 'notify' | 'transfer' | 'query' | 'update';
  key?: string;
}

export interface KnotOptions {
  zones: readonly KnotZone[];
  /** Defaults to a free port on 127.0.0.1. */
  port?: number;
  host?: string;
  /** Knot `server:` lines appended verbatim (e.g. `udp-workers: 1`), indented by us. */
  serverOptions?: readonly string[];
  keys?: readonly KnotKey[];
  remotes?: readonly KnotRemote[];
  acls?: readonly KnotAcl[];
  policies?: readonly KnotPolicy[];
  /** Top-level Knot configuration sections appended verbatim (e.g. a `policy:` section). */
  extraConfig?: string;
  /** Knot log level for stderr (default warning); see KnotServer.log(). */
  logLevel?: 'debug' | 'info' | 'notice' | 'warning' | 'error';
}

export interface KnotServer {
  readonly host: string;
  readonly port: number;
  readonly pid: number;
  readonly dir: string;
  /** What knotd wrote to stderr so far (its log, at `logLevel`). */
  log(): string;
  stop(): Promise<void>;
}

export function isKnotAvailable(): boolean {
  return existsSync(KNOTD_PATH);
}

function fqdn(domain: string): string {
  return domain.endsWith('.') ? domain : `${domain}.`;
}

function configText(dir: string, host: string, port: number, opts: KnotOptions): string {
  const server = (opts.serverOptions ?? []).map((l) => `    ${l}`).join('\n');
  const zones = opts.zones
    .map((z, i) => {
      let entry = `  - domain: "${fqdn(z.domain)}"\n    file: "zone-${i}.zone"`;
      if (z.master !== undefined) entry += `\n    master: ${z.master}`;
      if (z.acl !== undefined) entry += `\n    acl: [${z.acl.join(', ')}]`;
      if (z.dnssecPolicy !== undefined)
        entry += `\n    dnssec-signing: on\n    dnssec-policy: ${z.dnssecPolicy}`;
      for (const o of z.options ?? []) entry += `\n    ${o}`;
      return entry;
    })
    .join('\n');
  const section = (name: string, items: readonly object[] | undefined): string =>
    items === undefined || items.length === 0
      ? ''
      : `${name}:\n` +
        items
          .map((item) =>
            Object.entries(item)
              .filter(([, v]) => v !== undefined)
              .map(([k, v], j) => `${j === 0 ? '  - ' : '    '}${k}: ${String(v)}`)
              .join('\n'),
          )
          .join('\n') +
        '\n';
  // No `user:` → runs as the current user. No modules → no RRL, no cookies, no NSID.
  // EDNS Client Subnet echo on (RFC 7871 §7.2.1, SCOPE 0), as our engine always does.
  return `server:
    rundir: "${dir}/run"
    listen: ${host}@${port}
    nsid: ""
    version: ""
    identity: ""
    edns-client-subnet: on
${server}
database:
    storage: "${dir}/db"
${section('key', opts.keys)}${section('remote', opts.remotes)}${section('acl', opts.acls)}${section('policy', opts.policies)}${opts.extraConfig ?? ''}log:
  - target: stderr
    any: ${opts.logLevel ?? 'warning'}
template:
  - id: default
    storage: "${dir}/zones"
    zonefile-sync: -1
    zonefile-load: whole
    journal-content: none
    semantic-checks: off
zone:
${zones}
`;
}

function waitExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

export async function startKnot(opts: KnotOptions): Promise<KnotServer> {
  if (!isKnotAvailable()) throw new Error(`knotd not found at ${KNOTD_PATH}`);
  if (opts.zones.length === 0) throw new Error('startKnot needs at least one zone');
  const host = opts.host ?? '127.0.0.1';
  const port = opts.port ?? (await freePort(host));
  const dir = await mkdtemp(path.join(tmpdir(), 'knot-test-'));
  await Promise.all(['run', 'db', 'zones'].map((d) => mkdir(path.join(dir, d))));
  await Promise.all(
    opts.zones.map((z, i) =>
      z.text === undefined ? undefined : writeFile(path.join(dir, 'zones', `zone-${i}.zone`), z.text),
    ),
  );
  const conf = path.join(dir, 'knot.conf');
  await writeFile(conf, configText(dir, host, port, opts));

  const child = spawn(KNOTD_PATH, ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    if (stderr.length < KNOT_LOG_LIMIT) stderr += d.toString();
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });

  const stop = async (): Promise<void> => {
    if (!exited) {
      child.kill('SIGTERM');
      if (!(await waitExit(child, KNOT_STOP_GRACE_MS))) {
        child.kill('SIGKILL');
        await waitExit(child, KNOT_STOP_GRACE_MS);
      }
    }
    await rm(dir, { recursive: true, force: true });
  };

  const probe = dnsPacket.encode({
    type: 'query',
    id: 4242,
    questions: [{ name: fqdn(opts.zones[0]!.domain).slice(0, -1) || '.', type: 'SOA', class: 'IN' }],
  });
  const deadline = Date.now() + KNOT_START_TIMEOUT_MS;
  while (Date.now() < deadline && !exited) {
    const { response } = await queryUdp(probe, { host, port, timeoutMs: KNOT_POLL_TIMEOUT_MS, retries: 0 });
    // Ready = NOERROR (RFC 1035 §4.1.1 RCODE 0) with AA set: the zone is loaded.
    if (
      response !== null &&
      response.length >= 12 &&
      (response[3]! & 0x0f) === 0 &&
      (response[2]! & 0x04) !== 0
    ) {
      return { host, port, pid: child.pid ?? -1, dir, log: () => stderr, stop };
    }
    // Answered but not yet loaded: poll again at the next tick of a real query round-trip.
    if (response !== null) await new Promise<void>((r) => setTimeout(r, KNOT_POLL_TIMEOUT_MS / 4));
  }
  await stop();
  throw new Error(`knotd did not become ready (exited=${exited}):\n${stderr}`);
}
