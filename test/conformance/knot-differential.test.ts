/**
 * Differential conformance: every corpus query goes over UDP and TCP to a real Knot DNS and to
 * our engine (startDnsServer + core handler + ZoneStore), both serving the same zone files.
 * Answers must match in RCODE, flags, every section (order-insensitive), TTLs and EDNS.
 * Accepted differences are listed in LENIENT.md; real bugs stay visible in KNOWN_DIFFERENCES.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryTcpMany, queryUdp } from '../../src/testing/dns-client.ts';
import { isKnotAvailable, KNOTD_PATH, startKnot } from '../../src/testing/knot-server.ts';
import type { KnotServer } from '../../src/testing/knot-server.ts';
import { CONFORMANCE_ZONES } from './conformance-zones.ts';
import { startEngine } from './engine-server.ts';
import type { EngineServer } from './engine-server.ts';
import { buildMalformedCorpus } from './malformed-corpus.ts';
import { buildQueryCorpus } from './query-corpus.ts';
import type { CorpusCase } from './query-corpus.ts';
import { normalizeResponse, renderResponse } from './response-normalizer.ts';
import type { NormalizedResponse } from './response-normalizer.ts';

const COMPRESSION_CASE =
  'name compression (RFC 1035 §4.1.4) with a 0x20 question: Knot compresses against ONE suffix (the qname, replaced by each name it writes in full — libknot compr.c), so after the SOA MNAME ns.example.com the RNAME hostmaster.example is written in full, lower case; our writer keeps a dictionary of every name written and points RNAME at the question, so it reads hostmaster.<question case>';

/**
 * Cases where our answers currently differ from Knot's, with what differs. They run as
 * `it.fails`: the suite stays green, and a case that starts matching fails until removed here.
 * Maintained from actual runs; the core helper/lead fixes the engine and deletes lines.
 */
export const KNOWN_DIFFERENCES: Readonly<Record<string, string>> = {
  'ExAmPlE SOA 0x20-tld': COMPRESSION_CASE,
  'host1.examPle RRSIG 0x20-tld': COMPRESSION_CASE,
  'NoThErE.ExAmPlE A 0x20-tld': COMPRESSION_CASE,
};

const CASES: CorpusCase[] = [...buildQueryCorpus(), ...buildMalformedCorpus()];
const HOST = '127.0.0.1';
const CONCURRENCY = 24;
const UDP_TIMEOUT_MS = 500;
const UDP_RETRIES = 1;
const TCP_TIMEOUT_MS = 1500;

interface Observed {
  udp: NormalizedResponse | null;
  tcp: Array<NormalizedResponse | null>;
}

async function observe(c: CorpusCase, port: number): Promise<Observed> {
  const udp = c.transports.includes('udp')
    ? normalizeResponse(
        (await queryUdp(c.wire, { host: HOST, port, timeoutMs: UDP_TIMEOUT_MS, retries: UDP_RETRIES }))
          .response,
      )
    : null;
  const tcp = c.transports.includes('tcp')
    ? (await queryTcpMany([c.wire], { host: HOST, port, timeoutMs: TCP_TIMEOUT_MS })).map((b) =>
        normalizeResponse(b),
      )
    : [];
  return { udp, tcp };
}

async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (x: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

function explain(c: CorpusCase, ours: Observed, knot: Observed): string {
  const t = (o: Observed): string =>
    `UDP:\n${renderResponse(o.udp)}\nTCP:\n${o.tcp.length === 0 ? '  (no response)' : o.tcp.map(renderResponse).join('\n')}`;
  return `query "${c.id}" (${c.wire.toString('hex')})\n--- ours ---\n${t(ours)}\n--- knot ---\n${t(knot)}\n`;
}

const knotPresent = isKnotAvailable();

if (!knotPresent && process.env.CI) {
  describe('knot differential', () => {
    it('needs knotd in CI', () => {
      expect.fail(`knotd not found at ${KNOTD_PATH}; CI must install the knot package`);
    });
  });
}

describe.skipIf(!knotPresent)(
  `knot differential${knotPresent ? '' : ` (SKIPPED: knotd not installed at ${KNOTD_PATH})`}`,
  () => {
    let knot: KnotServer | null = null;
    let engine: EngineServer | null = null;
    const ours = new Map<string, Observed>();
    const theirs = new Map<string, Observed>();

    beforeAll(async () => {
      [knot, engine] = await Promise.all([
        startKnot({ zones: CONFORMANCE_ZONES.map((z) => ({ domain: z.domain, text: z.text })), host: HOST }),
        startEngine(CONFORMANCE_ZONES, {
          host: HOST,
          limits: { maxTcpConnectionsPerClient: 4 * CONCURRENCY },
        }),
      ]);
      const k = knot;
      const e = engine;
      const [a, b] = await Promise.all([
        mapLimited(CASES, CONCURRENCY, (c) => observe(c, e.server.udpPort)),
        mapLimited(CASES, CONCURRENCY, (c) => observe(c, k.port)),
      ]);
      CASES.forEach((c, i) => {
        ours.set(c.id, a[i]!);
        theirs.set(c.id, b[i]!);
      });
    }, 180_000);

    afterAll(async () => {
      await Promise.all([knot?.stop(), engine?.server.close()]);
    });

    it('has unique case ids and a few hundred cases', () => {
      expect(new Set(CASES.map((c) => c.id)).size).toBe(CASES.length);
      expect(CASES.length).toBeGreaterThan(300);
      for (const id of Object.keys(KNOWN_DIFFERENCES))
        expect(
          CASES.some((c) => c.id === id),
          id,
        ).toBe(true);
    });

    for (const c of CASES) {
      const known = KNOWN_DIFFERENCES[c.id];
      const run = known === undefined ? it : it.fails;
      run(known === undefined ? c.id : `${c.id} [KNOWN: ${known}]`, () => {
        const o = ours.get(c.id)!;
        const k = theirs.get(c.id)!;
        expect(o, explain(c, o, k)).toEqual(k);
      });
    }
  },
);
