import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildQuery } from '../../testing/dns-answer-compare.ts';
import type { QuerySpec } from '../../testing/dns-answer-compare.ts';
import { queryTcpMany } from '../../testing/dns-client.ts';
import { exampleStore } from '../../testing/dns-zone-fixture.ts';
import { createMessageHandler } from './handle-message.ts';
import { DEFAULT_SERVER_LIMITS } from './listener-options.ts';
import { bindTcp } from './tcp-listener.ts';
import type { TcpListener } from './tcp-listener.ts';

// RFC 7766 §6.2.1.1: pipelined queries on one connection; answers here come in query order.
const QUESTIONS: QuerySpec[] = [
  { name: 'www.example.com', type: 'A' },
  { name: 'example.com', type: 'NS' },
  { name: 'example.com', type: 'SOA', edns: { size: 1232 } },
  { name: 'big.example.com', type: 'TXT' },
  { name: 'srv.example.com', type: 'SRV' },
  { name: 'nope.example.com', type: 'A' },
  { name: 'foo.sub.example.com', type: 'A' },
  { name: 'www.other.test', type: 'AAAA', edns: { size: 1232 } },
  { name: 'www.unserved.invalid', type: 'A' },
];

const frame = (q: Uint8Array): Buffer => Buffer.concat([Buffer.from([q.length >> 8, q.length & 255]), q]);
const withoutId = (b: Buffer): string => b.subarray(2).toString('hex');

/** Writes `parts` one at a time (a pause between), collects `expect` framed answers. */
function exchange(port: number, parts: readonly Buffer[], expect: number): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const got: Buffer[] = [];
    let pending = Buffer.alloc(0);
    const sock = net.connect({ host: '127.0.0.1', port, noDelay: true });
    const timer = setTimeout(() => {
      sock.destroy();
      reject(new Error(`got ${got.length} of ${expect} answers`));
    }, 3000);
    sock.on('error', reject);
    sock.on('connect', async () => {
      for (const p of parts) {
        sock.write(p);
        await new Promise((r) => setTimeout(r, 30));
      }
    });
    sock.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 2 && pending.length >= pending.readUInt16BE(0) + 2) {
        const len = pending.readUInt16BE(0);
        got.push(Buffer.from(pending.subarray(2, len + 2)));
        pending = pending.subarray(len + 2);
      }
      if (got.length >= expect) {
        clearTimeout(timer);
        sock.destroy();
        resolve(got);
      }
    });
  });
}

describe('TCP pipelining against one-at-a-time answers', () => {
  let listener: TcpListener;
  const alone = new Map<number, string>();
  const query = (i: number): Buffer => buildQuery({ ...QUESTIONS[i % QUESTIONS.length]!, id: 1000 + i });

  beforeAll(async () => {
    listener = await bindTcp('127.0.0.1', 0, {
      handler: createMessageHandler(exampleStore()),
      rrl: null,
      stats: null,
      limits: DEFAULT_SERVER_LIMITS,
    });
    for (let i = 0; i < QUESTIONS.length; i++) {
      const [res] = await queryTcpMany([query(i)], { host: '127.0.0.1', port: listener.port });
      alone.set(i, withoutId(res!));
    }
  });
  afterAll(() => listener.close());

  it('answers 50 queries coalesced in one write in order, byte-identical but for the ID', async () => {
    const ids = Array.from({ length: 50 }, (_, i) => i);
    const got = await exchange(listener.port, [Buffer.concat(ids.map((i) => frame(query(i))))], 50);
    expect(got.map((r) => r.readUInt16BE(0))).toEqual(ids.map((i) => 1000 + i));
    got.forEach((r, i) => expect(withoutId(r)).toBe(alone.get(i % QUESTIONS.length)));
  });

  it('answers a query split across three writes, then queries after it, in order', async () => {
    const split = frame(query(3));
    const parts = [
      split.subarray(0, 1),
      split.subarray(1, 9),
      Buffer.concat([split.subarray(9), frame(query(0))]),
    ];
    const got = await exchange(listener.port, parts, 2);
    expect(got.map((r) => r.readUInt16BE(0))).toEqual([1003, 1000]);
    expect(withoutId(got[0]!)).toBe(alone.get(3));
    expect(withoutId(got[1]!)).toBe(alone.get(0));
  });
});
