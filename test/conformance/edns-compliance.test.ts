/**
 * ISC's EDNS compliance suite (the checks of ISC's `genreport`, written down as dig commands in
 * RFC 8906 §8), run with BIND's dig against the product as `npm start` serves it: DNS cookies on
 * (the default), NSID set, one plain and one signed zone. Every check must pass — 100/100 with
 * cookies on — and the last test states the tally.
 *
 * Each check is one dig command and what RFC 8906 §8 (and genreport's report) expects of an
 * authoritative server: the status, the flags, the OPT record's version and flags, what options
 * come back, whether the SOA (or DNSKEY) is in the answer.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createZone, ZONES } from '../../src/testing/dns-api-fixture.ts';
import { eventually } from '../../src/testing/eventually.ts';
import { freePort } from '../../src/testing/free-port.ts';
import { startTestApp, type TestApp } from '../../src/testing/test-app.ts';

const run = promisify(execFile);
const PLAIN = 'edns-plain.example';
const SIGNED = 'edns-signed.example';
const NSID = 'ns-compliance-1';

/** What dig printed, read into the parts the checks look at. */
interface DigAnswer {
  readonly text: string;
  readonly status: string;
  readonly opcode: string;
  readonly flags: Set<string>;
  /** The OPT record: null when the answer had none. */
  readonly edns: { version: number; flags: Set<string>; mbz: number } | null;
  readonly options: string;
  readonly answer: string[];
}

function read(text: string): DigAnswer {
  const header = /->>HEADER<<- opcode: (\w+), status: (\w+)/.exec(text);
  const flags = /;; flags:([^;]*);/.exec(text);
  const opt = /; EDNS: version: (\d+), flags:([^;]*);(?: MBZ: (0x[0-9a-f]+),)?/i.exec(text);
  const answer = /;; ANSWER SECTION:\n([\s\S]*?)\n\n/.exec(text);
  const optPart = /;; OPT PSEUDOSECTION:\n([\s\S]*?)\n(?:;; QUESTION|\n)/.exec(text);
  return {
    text,
    opcode: header?.[1] ?? '',
    status: header?.[2] ?? '',
    flags: new Set((flags?.[1] ?? '').trim().split(/\s+/).filter(Boolean)),
    edns: opt
      ? {
          version: Number(opt[1]),
          flags: new Set(opt[2]!.trim().split(/\s+/).filter(Boolean)),
          mbz: opt[3] ? parseInt(opt[3], 16) : 0,
        }
      : null,
    // The options' lines, without the "; EDNS: version..." line itself.
    options: (optPart?.[1] ?? '')
      .split('\n')
      .filter((l) => !l.startsWith('; EDNS:'))
      .join('\n'),
    answer: (answer?.[1] ?? '').split('\n').filter((l) => l !== '' && !l.startsWith(';')),
  };
}

interface Check {
  /** genreport's name of the test, with the RFC 8906 section where it has one. */
  readonly name: string;
  readonly zone: string;
  readonly args: string[];
  readonly expect: (a: DigAnswer, zone: string) => void;
}

const has = (a: DigAnswer, type: string, zone: string): boolean =>
  a.answer.some((l) => l.startsWith(`${zone}.`) && new RegExp(`\\s${type}\\s`).test(l));
const noOpt = (a: DigAnswer) => expect(a.edns, 'no OPT record').toBeNull();
const soaAnswer = (a: DigAnswer, zone: string) => {
  expect(a.status).toBe('NOERROR');
  expect(a.flags.has('aa'), 'aa').toBe(true);
  expect(has(a, 'SOA', zone), 'the SOA in the answer').toBe(true);
};
const optV0 = (a: DigAnswer) => {
  expect(a.edns, 'an OPT record').not.toBeNull();
  expect(a.edns!.version).toBe(0);
  expect(a.edns!.mbz, 'unknown EDNS flags cleared').toBe(0);
};
const badvers = (a: DigAnswer, zone: string) => {
  expect(a.status).toBe('BADVERS');
  optV0(a);
  expect(has(a, 'SOA', zone), 'no SOA in the answer').toBe(false);
};

const CHECKS: Check[] = [
  // RFC 8906 §8.1: basic DNS, no EDNS.
  {
    name: 'dns (§8.1.1)',
    zone: PLAIN,
    args: ['+noedns', 'SOA'],
    expect: (a, z) => (soaAnswer(a, z), noOpt(a)),
  },
  {
    name: 'type666 (§8.1.2, unknown type)',
    zone: PLAIN,
    args: ['+noedns', 'TYPE666'],
    expect: (a, z) => {
      expect(a.status).toBe('NOERROR');
      expect(a.flags.has('aa')).toBe(true);
      expect(a.answer).toEqual([]);
      expect(a.text, 'the SOA in the authority section').toMatch(
        new RegExp(`AUTHORITY SECTION:\\n${z.replace('.', '\\.')}\\.\\s+\\d+\\s+IN\\s+SOA`),
      );
      noOpt(a);
    },
  },
  {
    name: 'cd (§8.1.3.1)',
    zone: PLAIN,
    // RFC 8906 asks for the answer only; the CD bit comes back clear, as Knot answers it.
    args: ['+noedns', '+cdflag', 'SOA'],
    expect: (a, z) => soaAnswer(a, z),
  },
  {
    name: 'ad (§8.1.3.2)',
    zone: PLAIN,
    args: ['+noedns', '+adflag', 'SOA'],
    expect: (a, z) => (soaAnswer(a, z), expect(a.flags.has('ad'), 'no AD from an authority').toBe(false)),
  },
  {
    name: 'zflag (§8.1.3.3, reserved header flag)',
    zone: PLAIN,
    args: ['+noedns', '+zflag', 'SOA'],
    expect: (a, z) => (soaAnswer(a, z), expect(a.text).not.toMatch(/MBZ/)),
  },
  {
    name: 'opcode (§8.1.4, unknown opcode)',
    zone: PLAIN,
    args: ['+noedns', '+opcode=15', '+header-only'],
    expect: (a) => {
      expect(a.status).toBe('NOTIMP');
      expect(a.answer).toEqual([]);
      expect(a.flags.has('aa')).toBe(false);
    },
  },
  {
    name: 'opcodeflg (unknown opcode, flags set)',
    zone: PLAIN,
    args: ['+noedns', '+opcode=15', '+header-only', '+zflag', '+adflag', '+cdflag'],
    expect: (a) => (expect(a.status).toBe('NOTIMP'), expect(a.answer).toEqual([])),
  },
  { name: 'tcp (§8.1.5)', zone: PLAIN, args: ['+noedns', '+tcp', 'SOA'], expect: (a, z) => soaAnswer(a, z) },
  // RFC 8906 §8.2: EDNS.
  {
    name: 'edns (§8.2.1, minimal EDNS)',
    zone: PLAIN,
    args: ['+edns=0', '+nocookie', 'SOA'],
    expect: (a, z) => (soaAnswer(a, z), optV0(a), expect(a.options.trim()).toBe('')),
  },
  {
    name: 'edns1 (§8.2.2, version negotiation)',
    zone: PLAIN,
    args: ['+edns=1', '+noednsneg', '+nocookie', 'SOA'],
    expect: badvers,
  },
  {
    name: 'ednsopt (§8.2.3, unknown option)',
    zone: PLAIN,
    args: ['+edns=0', '+nocookie', '+ednsopt=100', 'SOA'],
    expect: (a, z) => (soaAnswer(a, z), optV0(a), expect(a.options).not.toMatch(/OPT=100/)),
  },
  {
    name: 'ednsflags (§8.2.4, unknown EDNS flag)',
    zone: PLAIN,
    args: ['+edns=0', '+nocookie', '+ednsflags=0x80', 'SOA'],
    expect: (a, z) => (soaAnswer(a, z), optV0(a)),
  },
  {
    name: 'edns1flags (§8.2.5)',
    zone: PLAIN,
    args: ['+edns=1', '+noednsneg', '+nocookie', '+ednsflags=0x80', 'SOA'],
    expect: badvers,
  },
  {
    name: 'edns1opt (§8.2.6)',
    zone: PLAIN,
    args: ['+edns=1', '+noednsneg', '+nocookie', '+ednsopt=100', 'SOA'],
    expect: (a, z) => (badvers(a, z), expect(a.options).not.toMatch(/OPT=100/)),
  },
  {
    name: 'edns@512 (§8.2.7, truncated EDNS answer)',
    zone: SIGNED,
    args: ['+edns=0', '+nocookie', '+dnssec', '+bufsize=512', '+ignore', 'DNSKEY'],
    expect: (a, z) => {
      expect(a.status).toBe('NOERROR');
      optV0(a);
      expect(has(a, 'DNSKEY', z) || a.flags.has('tc'), 'DNSKEY answered or TC set').toBe(true);
    },
  },
  {
    name: 'do (§8.2.8)',
    zone: PLAIN,
    args: ['+edns=0', '+nocookie', '+dnssec', 'SOA'],
    expect: (a, z) => (soaAnswer(a, z), optV0(a), expect(a.edns!.flags.has('do'), 'DO echoed').toBe(true)),
  },
  {
    name: 'ednstcp (§8.2.9, DNSKEY at bufsize 512 over TCP)',
    zone: SIGNED,
    args: ['+tcp', '+edns=0', '+nocookie', '+dnssec', '+bufsize=512', 'DNSKEY'],
    expect: (a, z) => {
      expect(a.status).toBe('NOERROR');
      optV0(a);
      expect(has(a, 'DNSKEY', z)).toBe(true);
      expect(a.flags.has('tc')).toBe(false);
    },
  },
  {
    name: 'signed (RRSIG with DO on a signed zone)',
    zone: SIGNED,
    args: ['+edns=0', '+nocookie', '+dnssec', 'SOA'],
    expect: (a, z) => (soaAnswer(a, z), expect(has(a, 'RRSIG', z), 'RRSIG SOA').toBe(true)),
  },
  {
    name: 'cookie (RFC 7873 client cookie → server cookie)',
    zone: PLAIN,
    args: ['+edns=0', '+cookie', 'SOA'],
    expect: (a, z) => {
      soaAnswer(a, z);
      optV0(a);
      // dig checks the echoed client cookie itself and prints "(good)".
      expect(a.options).toMatch(/COOKIE: [0-9a-f]{16}[0-9a-f]{16,64} \(good\)/i);
    },
  },
  {
    name: 'optlist (NSID, client subnet, EXPIRE and a cookie together)',
    zone: PLAIN,
    args: ['+edns=0', '+nsid', '+subnet=0.0.0.0/0', '+expire', '+cookie', 'SOA'],
    expect: (a, z) => {
      soaAnswer(a, z);
      optV0(a);
      expect(a.options).toContain(`("${NSID}")`);
      expect(a.options).toMatch(/CLIENT-SUBNET: 0\.0\.0\.0\/0\/0/);
      expect(a.options).toMatch(/COOKIE: .* \(good\)/);
    },
  },
  {
    name: 'nsid (RFC 5001)',
    zone: PLAIN,
    args: ['+edns=0', '+nocookie', '+nsid', 'SOA'],
    expect: (a, z) => (soaAnswer(a, z), expect(a.options).toContain(`("${NSID}")`)),
  },
];

describe("ISC's EDNS compliance checks (RFC 8906 §8), dig against the product with cookies on", () => {
  let t: TestApp;
  let port: number;
  const passed = new Set<string>();
  const dig = async (zone: string, args: string[]): Promise<DigAnswer> =>
    read(
      (await run('dig', ['@127.0.0.1', '-p', String(port), '+norec', '+time=2', '+tries=2', ...args, zone]))
        .stdout,
    );

  beforeAll(async () => {
    port = await freePort();
    t = await startTestApp({ env: { DNS_PORT: String(port), DNS_NSID: NSID, DNS_COOKIES: 'true' } });
    const { token } = await t.signUp();
    await createZone(t, token, PLAIN);
    const signed = await createZone(t, token, SIGNED);
    const on = await t.request('PATCH', `${ZONES}/${signed.id}`, { token, body: { dnssec_enabled: true } });
    expect(on.status).toBe(200);
    await eventually(async () => {
      const a = await dig(SIGNED, ['+edns=0', '+dnssec', 'DNSKEY']);
      expect(has(a, 'RRSIG', SIGNED)).toBe(true);
    });
  });
  afterAll(async () => t?.close());

  for (const check of CHECKS) {
    it(check.name, async () => {
      const answer = await dig(check.zone, check.args);
      try {
        check.expect(answer, check.zone);
      } catch (error) {
        throw new Error(`${(error as Error).message}\n${answer.text}`);
      }
      passed.add(check.name);
    });
  }

  it(`passes all ${CHECKS.length} checks`, () => {
    expect(CHECKS.filter((c) => !passed.has(c.name)).map((c) => c.name)).toEqual([]);
  });
});
