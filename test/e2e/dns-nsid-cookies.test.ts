/**
 * NSID (RFC 5001) and DNS cookies (RFC 7873, RFC 9018) as an operator's tool sees them: kdig
 * against the product started as `npm start` would, over real UDP.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createZone, ZONES } from '../../src/testing/dns-api-fixture.ts';
import { eventually } from '../../src/testing/eventually.ts';
import { freePort } from '../../src/testing/free-port.ts';
import { startTestApp, type TestApp } from '../../src/testing/test-app.ts';

const run = promisify(execFile);

describe('NSID, DNS cookies and the CHAOS identity, asked with kdig', () => {
  let t: TestApp;
  let port: number;
  const kdig = async (...args: string[]): Promise<string> =>
    (await run('kdig', [`@127.0.0.1`, '-p', String(port), '+time=2', '+retry=1', ...args])).stdout;

  beforeAll(async () => {
    port = await freePort();
    t = await startTestApp({
      env: { DNS_PORT: String(port), DNS_NSID: 'ns-fra-1', DNS_IDENTITY: 'ns-fra-1.example.net' },
    });
    const { token } = await t.signUp();
    const zone = await createZone(t, token, 'cookies.example');
    await t.request('POST', `${ZONES}/${zone.id}/records`, {
      token,
      body: { name: 'www', type: 'A', content: '192.0.2.10' },
    });
  });
  afterAll(async () => t?.close());

  it('tells which node answered when asked', async () => {
    const out = await eventually(async () => {
      const text = await kdig('www.cookies.example', 'A', '+nsid');
      expect(text).toContain('192.0.2.10');
      return text;
    });
    expect(out).toMatch(/NSID: 6e732d6672612d31 \\?"ns-fra-1\\?"/i);
    expect(await kdig('www.cookies.example', 'A')).not.toContain('NSID');
  });

  it('answers a client cookie with a server cookie that kdig sends back and gets renewed', async () => {
    const first = await kdig('www.cookies.example', 'A', '+cookie');
    const cookie = /COOKIE: ([0-9a-f]{16})([0-9a-f]{32})/i.exec(first);
    expect(cookie, first).not.toBeNull();
    expect(cookie![2]!.slice(0, 8)).toBe('01000000');
    const again = await kdig('www.cookies.example', 'A', `+cookie=${cookie![1]}${cookie![2]}`);
    expect(again).toContain('192.0.2.10');
    expect(again).toMatch(new RegExp(`COOKIE: ${cookie![1]}01000000[0-9a-f]{24}$`, 'im'));
  });

  it('answers its identity in class CH when set, and refuses what is not set (the version)', async () => {
    for (const name of ['id.server', 'hostname.bind']) {
      const out = await kdig('-c', 'CH', '-t', 'TXT', name);
      expect(out).toContain('status: NOERROR');
      expect(out).toMatch(
        new RegExp(`${name.replace('.', '\\.')}\\.\\s+0\\s+CH\\s+TXT\\s+"ns-fra-1\\.example\\.net"`),
      );
      expect(out).toMatch(/flags: qr aa/i);
    }
    expect(await kdig('-c', 'CH', '-t', 'TXT', 'version.bind')).toContain('status: REFUSED');
  });
});
