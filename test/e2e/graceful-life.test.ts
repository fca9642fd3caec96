import { spawn, type ChildProcessByStdio } from 'node:child_process';
import dgram from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import dnsPacket from 'dns-packet';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Started {
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  readonly opsUrl: string;
  readonly dnsPort: number;
  readonly exited: Promise<number | null>;
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** Starts `npm start`'s entry point and waits until the ops endpoints and DNS listen. */
async function start(role: 'all' | 'dns'): Promise<Started> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'dns-life-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/apps/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      OBJECT_STORAGE_LOCAL: 'off',
      COMPUTE_LOCAL: 'off',
      ROLE: role,
      API_PORT: '0',
      DNS_PORT: '0',
      EDGE_PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(() => {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const listening = /"url":"(http:\/\/[^"]+)","msg":"(?:API|ops endpoints) listening"/;
  const dns = /"port":(\d+),"msg":"DNS listening"/;
  const { opsUrl, dnsPort } = await new Promise<{ opsUrl: string; dnsPort: number }>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const u = listening.exec(out);
      const d = dns.exec(out);
      if (u && d) resolve({ opsUrl: u[1]!, dnsPort: Number(d[1]) });
    });
    void exited.then((code) => reject(new Error(`exited early with ${code}: ${out}`)));
  });
  return { child, opsUrl, dnsPort, exited };
}

function query(id: number): Buffer {
  return dnsPacket.encode({ type: 'query', id, questions: [{ type: 'A', name: `q${id}.example.com` }] });
}

describe('graceful life', () => {
  it('serves /healthz, /readyz, /metrics without a token; SIGTERM answers what TCP has read, closes with FIN, exits 0', async () => {
    const node = await start('all');
    expect(await (await fetch(`${node.opsUrl}/healthz`)).json()).toEqual({ status: 'ok' });
    expect((await fetch(`${node.opsUrl}/readyz`)).status).toBe(200);
    const scrape = await fetch(`${node.opsUrl}/metrics`);
    expect(scrape.headers.get('content-type')).toContain('version=0.0.4');
    expect(await scrape.text()).toMatch(/^dns_zones_loaded 0$/m);

    const sock = net.connect(node.dnsPort, '127.0.0.1');
    await new Promise<void>((resolve) => sock.once('connect', () => resolve()));
    const sentAt = new Map<number, number>();
    const answered = new Set<number>();
    let buffered = Buffer.alloc(0);
    sock.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
        const len = buffered.readUInt16BE(0);
        answered.add(dnsPacket.decode(buffered.subarray(2, 2 + len)).id!);
        buffered = buffered.subarray(2 + len);
      }
    });
    let reset = false;
    sock.on('error', () => (reset = true));
    const ended = new Promise<void>((resolve) => sock.once('end', () => resolve()));
    let id = 0;
    const sender = setInterval(() => {
      if (sock.writableEnded || sock.destroyed) return;
      for (let i = 0; i < 5; i++) {
        const q = query(id);
        const frame = Buffer.alloc(2 + q.length);
        frame.writeUInt16BE(q.length, 0);
        q.copy(frame, 2);
        sentAt.set(id++, Date.now());
        sock.write(frame);
      }
    }, 2);
    while (answered.size < 200) await new Promise((r) => setTimeout(r, 5));
    const killedAt = Date.now();
    node.child.kill('SIGTERM');
    await ended;
    clearInterval(sender);
    sock.end();
    expect(reset).toBe(false);
    // Everything sent well before the signal was read, so it was answered.
    for (const [qid, at] of sentAt) if (at < killedAt - 100) expect(answered.has(qid)).toBe(true);
    expect(answered.size).toBeGreaterThanOrEqual(200);
    expect(await node.exited).toBe(0);
  }, 90_000);

  it('the dns role serves only the ops endpoints; SIGHUP amid 500 UDP queries loses none', async () => {
    const node = await start('dns');
    expect((await fetch(`${node.opsUrl}/readyz`)).status).toBe(200);
    expect((await fetch(`${node.opsUrl}/api/v1/locations`)).status).toBe(404);

    const udp = dgram.createSocket('udp4');
    const answered = new Set<number>();
    udp.on('message', (msg) => answered.add(dnsPacket.decode(msg).id!));
    const send = (qid: number): void => udp.send(query(qid), node.dnsPort, '127.0.0.1');
    for (let qid = 0; qid < 500; qid++) {
      if (qid === 250) node.child.kill('SIGHUP');
      send(qid);
      // Paced so the loopback socket buffers never overflow: a loss would then be ours.
      if (qid % 25 === 24) await new Promise((r) => setTimeout(r, 5));
    }
    const deadline = Date.now() + 5_000;
    while (answered.size < 500 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    udp.close();
    expect(answered.size).toBe(500);
    expect(node.child.exitCode).toBeNull();

    const metrics = await (await fetch(`${node.opsUrl}/metrics`)).text();
    expect(metrics).toMatch(/^dns_queries_total\{zone="none",rcode="REFUSED",transport="udp"\} 500$/m);
    expect(metrics).toContain('# TYPE dns_query_duration_seconds histogram');
    expect(metrics).toMatch(/^process_resident_memory_bytes \d+/m);

    node.child.kill('SIGTERM');
    expect(await node.exited).toBe(0);
  }, 90_000);
});
