/**
 * Test helper: Let's Encrypt's ACME test server, pebble (Debian package), on free ports with a TLS
 * certificate of the test's own CA. It validates DNS-01 by asking `dnsServer` (our engine) and
 * HTTP-01 by connecting to `httpPort` (our listener) at the address our DNS gives the name.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent, fetch } from 'undici';
import { freePorts } from './free-port.ts';
import type { LocalCa } from './local-ca.ts';

export interface PebbleServer {
  /** The ACME directory URL (an entry of ACME_PROVIDERS). */
  readonly directoryUrl: string;
  /** The PEM of the CA that issued certificates chain to (regenerated at every start of pebble). */
  root(): Promise<string>;
  /** The PEM of the intermediate that signs issued certificates. */
  intermediate(): Promise<string>;
  /** `Valid` or `Revoked`: what pebble says of the certificate with this serial (hex). */
  certStatus(serial: string): Promise<string>;
  readonly output: () => string;
  close(): Promise<void>;
}

export interface PebbleOptions {
  /** The TLS identity of pebble's listeners: point ACME_CA_FILE at `ca.caFile`. */
  readonly ca: LocalCa;
  /** `host:port` of the DNS server pebble resolves names with (our engine). */
  readonly dnsServer: string;
  /** Where pebble connects for HTTP-01 (our listener's port). */
  readonly httpPort: number;
  /** A pebble that refuses every account without external account binding (RFC 8555 §7.3.4). */
  readonly requireEab?: boolean;
}

export async function startPebble(options: PebbleOptions): Promise<PebbleServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pebble-'));
  const [port, managementPort, tlsPort] = (await freePorts(3)) as [number, number, number];
  const config = {
    pebble: {
      listenAddress: `127.0.0.1:${port}`,
      managementListenAddress: `127.0.0.1:${managementPort}`,
      certificate: path.join(options.ca.dir, 'server.pem'),
      privateKey: path.join(options.ca.dir, 'server.key'),
      httpPort: options.httpPort,
      tlsPort,
      ocspResponderURL: '',
      externalAccountBindingRequired: options.requireEab === true,
      ...(options.requireEab === true
        ? {
            externalAccountMACKeys: {
              'kid-1': 'zWNDZM6eQGHWpSRTPal5eIUYFTu7EajVIoguysqZ9wG44nMEtx3MUAsUDkMTQ12W',
            },
          }
        : {}),
    },
  };
  const configFile = path.join(dir, 'pebble-config.json');
  writeFileSync(configFile, JSON.stringify(config));
  let output = '';
  const child: ChildProcess = spawn('pebble', ['-config', configFile, '-dnsserver', options.dnsServer], {
    env: {
      ...process.env,
      PEBBLE_VA_NOSLEEP: '1',
      PEBBLE_WFE_NONCEREJECT: '0',
      PEBBLE_AUTHZREUSE: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const dispatcher = new Agent({ connect: { ca: readFileSync(options.ca.caFile, 'utf8') } });
  const directoryUrl = `https://127.0.0.1:${port}/dir`;
  const get = async (url: string): Promise<string> => {
    const res = await fetch(url, { dispatcher });
    if (!res.ok) throw new Error(`${url}: ${res.status}`);
    return res.text();
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      await get(directoryUrl);
      break;
    } catch (error) {
      if (child.exitCode !== null || Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`pebble did not start: ${String(error)}\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const management = `https://127.0.0.1:${managementPort}`;
  let closed = false;
  return {
    directoryUrl,
    root: () => get(`${management}/roots/0`),
    intermediate: () => get(`${management}/intermediates/0`),
    certStatus: async (serial) =>
      (JSON.parse(await get(`${management}/cert-status-by-serial/${serial}`)) as { Status: string }).Status,
    output: () => output,
    async close() {
      if (closed) return;
      closed = true;
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      await dispatcher.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
