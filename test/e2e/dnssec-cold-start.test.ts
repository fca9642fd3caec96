/**
 * A signed zone served by a DNS node cold-started from its snapshot file while PostgreSQL is
 * unreachable: the zone's keys travel in the file, sealed as in the database, so the node answers
 * signed at once and a validating resolver (unbound, trusting the zone's DS) accepts the answers.
 * Needs DATABASE_URL and REDIS_URL (a DNS-only peer beside the API node) and unbound.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningNode } from '../../src/apps/node.ts';
import { SNAPSHOT_FILE_NAME } from '../../src/nodes/dns/snapshot-file.ts';
import { createZone, ZONES } from '../../src/testing/dns-api-fixture.ts';
import { eventually } from '../../src/testing/eventually.ts';
import { startTcpProxy, type TcpProxy } from '../../src/testing/tcp-proxy.ts';
import { startTestApp, type TestApp } from '../../src/testing/test-app.ts';
import { dig, isUnboundAvailable, startUnbound, type Unbound } from '../../src/testing/unbound-validator.ts';

const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;
const ZONE = 'coldsigned.example';

describe.skipIf(!DATABASE_URL || !REDIS_URL || (!isUnboundAvailable() && !process.env.CI))(
  'DNSSEC from a cold snapshot, validated by unbound',
  () => {
    let t: TestApp;
    let db: TcpProxy;
    let dataDir: string;
    let peer: RunningNode | null = null;
    let unbound: Unbound | null = null;
    let ds: string;

    const startDnsNode = (): Promise<RunningNode> => {
      const u = new URL(DATABASE_URL!);
      u.hostname = '127.0.0.1';
      u.port = String(db.port);
      return t.startPeer({ ROLE: 'dns', DATA_DIR: dataDir, DATABASE_URL: u.toString() });
    };

    beforeAll(async () => {
      const pg = new URL(DATABASE_URL!);
      db = await startTcpProxy(pg.hostname, Number(pg.port || 5432));
      dataDir = mkdtempSync(path.join(tmpdir(), 'dnssec-cold-'));
      // One sealing key for the API node and the DNS node, as a deployment of several hosts has.
      t = await startTestApp({ env: { SEALING_KEY: randomBytes(32).toString('base64') } });
      const { token } = await t.signUp();
      const zone = await createZone(t, token, ZONE);
      const www = await t.request('POST', `${ZONES}/${zone.id}/records`, {
        token,
        body: { name: 'www', type: 'A', content: '192.0.2.80' },
      });
      expect(www.status).toBe(201);
      expect(
        (await t.request('PATCH', `${ZONES}/${zone.id}`, { token, body: { dnssec_enabled: true } })).status,
      ).toBe(200);
      ds = (await t.request('GET', `${ZONES}/${zone.id}/dnssec`, { token })).body.ds_records[0] as string;
    }, 60_000);

    afterAll(async () => {
      await unbound?.stop();
      await db?.restore().catch(() => undefined);
      await peer?.stop();
      await t?.close();
      await db?.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    }, 30_000);

    it('answers signed at once, and unbound validates it, with the database down', async () => {
      peer = await startDnsNode();
      const file = path.join(dataDir, SNAPSHOT_FILE_NAME);
      await eventually(async () => {
        expect(existsSync(file)).toBe(true);
        expect(readFileSync(file, 'utf8')).toContain('"dnssec"');
      }, 10_000);
      await peer.stop();
      peer = null;

      await db.cut();
      peer = await startDnsNode();
      expect(peer.dns!.sync.degraded).toBe(true);
      const port = peer.dns!.udpPort;
      const direct = await dig(port, `www.${ZONE}`, 'A', ['+norec']);
      expect(
        direct.records.some((l) => / RRSIG A /.test(l)),
        direct.text,
      ).toBe(true);

      unbound = await startUnbound(ZONE, ds, port);
      for (const [name, type, status] of [
        [`www.${ZONE}`, 'A', 'NOERROR'],
        [ZONE, 'DNSKEY', 'NOERROR'],
        [`nope.${ZONE}`, 'A', 'NXDOMAIN'],
      ] as const) {
        const r = await dig(unbound.port, name, type);
        expect(r.status, `${name} ${type}\n${r.text}`).toBe(status);
        expect(r.flags, `${name} ${type}: AD\n${r.text}`).toContain('ad');
      }
    }, 90_000);
  },
);
