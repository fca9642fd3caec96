/**
 * A KSK rollover (RFC 7583 double-DS) of a child zone whose parent is served by the engine too:
 * `example.test` (the parent, signed) delegates `sub.example.test` (the child, signed) with a DS
 * written through the API, as a user does at a registrar. unbound trusts only the parent's DS and
 * must validate the child's answers before, during and after the rollover, at every step, with the
 * control plane's clock moved; the rollover does not move while the parent lacks the new DS. The
 * parent is asked through DNSSEC_PARENT_RESOLVER = the engine's own port (it answers DS from the
 * parent side of the cut). Every step is in the audit log of the zone's organization.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/kernel/clock.ts';
import { eventually } from '../../src/testing/eventually.ts';
import { freePort } from '../../src/testing/free-port.ts';
import { createOrg, ORGS } from '../../src/testing/org-fixture.ts';
import { startTestApp, type TestApp } from '../../src/testing/test-app.ts';
import { dig, isUnboundAvailable, startUnbound } from '../../src/testing/unbound-validator.ts';

const ZONES = '/api/v1/dns/zones';
const PARENT = 'example.test';
const CHILD = 'sub.example.test';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const DS_TTL_S = 600;
const ORG = 'rollover-org';

interface KeyInfo {
  key_tag: number;
  role: string;
  state: string;
}
interface DnssecInfo {
  ksk_key_tag: number;
  ds_records: string[];
  keys: KeyInfo[];
  rollover: { state: string; last_parent_check_at: string | null } | null;
}

/** Waits for `fn` to give a value (not null): a step of the rollover to be seen. */
const until = <T>(what: string, fn: () => Promise<T | null>, timeoutMs = 20_000): Promise<T> =>
  eventually(async () => {
    const v = await fn();
    if (v === null) throw new Error(`timed out waiting for ${what}`);
    return v;
  }, timeoutMs);

/** "sub.example.test. 3600 IN DS 1234 13 2 ab..." → "1234 13 2 ab..." (a DS record's content). */
const dsContent = (text: string): string => text.split(' IN DS ')[1]!;

describe.skipIf(!isUnboundAvailable() && !process.env.CI)(
  'DNSSEC: KSK rollover with the parent DS checked',
  () => {
    let t: TestApp;
    let port: number;
    let now = Date.now();
    const clock: Clock = { now: () => now };
    let token: string;
    let email: string;
    let parentId: number;
    let childId: number;
    let parentDs: string;

    const call = async (method: string, path: string, body?: unknown) => {
      const res = await t.request(method, path, { token, ...(body !== undefined ? { body } : {}) });
      expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
      return res.body;
    };
    const info = async (): Promise<DnssecInfo> => call('GET', `${ZONES}/${childId}/dnssec`);
    /** Moves the control plane's clock; access tokens expire meanwhile, so sign in again. */
    const advance = async (ms: number): Promise<void> => {
      now += ms;
      token = await t.signIn(email);
    };
    /** A fresh unbound (no cache) trusting only the parent's DS validates the child's answers. */
    const validates = async (step: string): Promise<void> => {
      const unbound = await startUnbound(PARENT, parentDs, port, [CHILD]);
      try {
        for (const [name, type] of [
          [`www.${CHILD}`, 'A'],
          [CHILD, 'DNSKEY'],
          [`nope.${CHILD}`, 'A'],
        ] as const) {
          const r = await dig(unbound.port, name, type);
          expect(['NOERROR', 'NXDOMAIN'], `${step}: ${name} ${type}\n${r.text}`).toContain(r.status);
          expect(r.flags, `${step}: ${name} ${type} validated (AD)\n${r.text}`).toContain('ad');
        }
      } finally {
        await unbound.stop();
      }
    };
    /** The key tags of the child's DNSKEY RRSIGs, as served. */
    const dnskeySigners = async (): Promise<number[]> =>
      (await dig(port, CHILD, 'DNSKEY', ['+norec'])).records
        .filter((l) => / RRSIG DNSKEY /.test(l))
        .map((l) => Number(l.split(' ')[10]))
        .sort();
    const cdsTags = async (): Promise<number[]> =>
      (await dig(port, CHILD, 'CDS', ['+norec'])).records
        .filter((l) => / IN CDS /.test(l))
        .map((l) => Number(l.split(' ')[4]))
        .sort();
    /** The rollover's entries of the organization's audit log, oldest first, as its owner reads them. */
    const auditSteps = async (): Promise<string[]> =>
      ((await call('GET', `${ORGS}/${ORG}/audit-log`)) as { action: string; resource_id: string }[])
        .filter((e) => e.action.startsWith('dns.dnssec.ksk_rollover') && e.resource_id === String(childId))
        .map((e) => e.action)
        .reverse();

    beforeAll(async () => {
      port = await freePort();
      t = await startTestApp({
        clock,
        env: {
          DNS_PORT: String(port),
          DNSSEC_KEY_CHECK_INTERVAL_S: '1',
          DNSSEC_PARENT_RESOLVER: `127.0.0.1:${port}`,
        },
      });
      ({ token, email } = await t.signUp());
      await createOrg(t, token, ORG);
      parentId = (await call('POST', ZONES, { domain: PARENT, org_slug: ORG })).id;
      childId = (await call('POST', ZONES, { domain: CHILD, org_slug: ORG })).id;
      await call('POST', `${ZONES}/${childId}/records`, { name: 'www', type: 'A', content: '198.51.100.7' });
      await call('PATCH', `${ZONES}/${parentId}`, { dnssec_enabled: true });
      await call('PATCH', `${ZONES}/${childId}`, { dnssec_enabled: true });
      parentDs = (await call('GET', `${ZONES}/${parentId}/dnssec`)).ds_records[0];
      // The parent delegates the child by itself (managed NS records, one holder's zones): the DS goes beside.
      const childDs = (await info()).ds_records[0]!;
      await call('POST', `${ZONES}/${parentId}/records`, {
        name: 'sub',
        type: 'DS',
        content: dsContent(childDs),
        ttl: DS_TTL_S,
      });
    }, 60_000);
    afterAll(async () => t?.close());

    it('rolls the KSK only once the parent shows the new DS, validating at every step', async () => {
      await until('the child served signed', async () => ((await dnskeySigners()).length > 0 ? true : null));
      await validates('before');
      const before = await info();
      const oldTag = before.ksk_key_tag;
      expect(await cdsTags()).toEqual([oldTag]);

      // 1. Start: a second KSK is published; CDS and ds_records name both; the old key still signs.
      const started: DnssecInfo = await call('POST', `${ZONES}/${childId}/dnssec/rollover`, { key: 'ksk' });
      const newTag = started.keys.find((k) => k.role === 'ksk' && k.state === 'published')!.key_tag;
      expect(started.rollover?.state).toBe('waiting_for_parent_ds');
      expect(started.ds_records).toHaveLength(2);
      await until('CDS naming both KSKs', async () =>
        (await cdsTags()).join() === [oldTag, newTag].sort().join() ? true : null,
      );
      expect(await dnskeySigners()).toEqual([oldTag]);
      await validates('started');

      // 2. The parent is asked (at once, then hourly) and lacks the new DS: nothing moves, for days.
      const firstCheck = await until('the first parent check', async () => {
        const d = await info();
        return d.rollover?.last_parent_check_at ? d : null;
      });
      expect(firstCheck.rollover!.state).toBe('waiting_for_parent_ds');
      for (let i = 0; i < 3; i++) {
        await advance(DAY);
        const checkedAt = now;
        await until('another parent check', async () => {
          const d = await info();
          return Date.parse(d.rollover!.last_parent_check_at!) === checkedAt ? d : null;
        });
      }
      const stuck = await info();
      expect(stuck.rollover!.state).toBe('waiting_for_parent_ds');
      expect(stuck.ksk_key_tag).toBe(oldTag);
      expect(stuck.keys.filter((k) => k.role === 'ksk')).toHaveLength(2);
      expect(await dnskeySigners()).toEqual([oldTag]);
      await validates('waiting');

      // 3. The user adds the new DS at the parent (the registrar): the next check sees it.
      await call('POST', `${ZONES}/${parentId}/records`, {
        name: 'sub',
        type: 'DS',
        content: dsContent(started.ds_records[1]!),
        ttl: DS_TTL_S,
      });
      await validates('both DS at the parent');
      await advance(HOUR);
      await until('the new DS seen', async () =>
        (await info()).rollover?.state === 'parent_ds_seen' ? true : null,
      );
      expect(await dnskeySigners()).toEqual([oldTag]);

      // 4. Seen for its TTL at the next check: the new KSK signs alone, the old one leaves CDS.
      await advance(HOUR);
      const swapped = await until('the new KSK active', async () => {
        const d = await info();
        return d.rollover?.state === 'retiring_old_key' ? d : null;
      });
      expect(swapped.ksk_key_tag).toBe(newTag);
      expect(swapped.ds_records).toHaveLength(1);
      expect(swapped.ds_records[0]).toContain(` DS ${newTag} `);
      await until('DNSKEY signed by the new KSK only', async () =>
        (await dnskeySigners()).join() === String(newTag) ? true : null,
      );
      expect(await cdsTags()).toEqual([newTag]);
      await validates('swapped');

      // 5. One DNSKEY TTL later the old key is gone; the user removes the old DS at the parent.
      await advance(HOUR + 60_000);
      const done = await until('the old KSK removed', async () => {
        const d = await info();
        return d.rollover === null ? d : null;
      });
      expect(done.keys.filter((k) => k.role === 'ksk').map((k) => k.key_tag)).toEqual([newTag]);
      await validates('old key removed');
      const parentRecords = await call('GET', `${ZONES}/${parentId}/records?type=DS`);
      const oldDs = (parentRecords as { id: number; content: string }[]).find((r) =>
        r.content.startsWith(`${oldTag} `),
      )!;
      await call('DELETE', `${ZONES}/${parentId}/records/${oldDs.id}`);
      await validates('after');

      expect(await auditSteps()).toEqual([
        'dns.dnssec.ksk_rollover_start',
        'dns.dnssec.ksk_rollover_parent_ds_seen',
        'dns.dnssec.ksk_rollover_swap',
        'dns.dnssec.ksk_rollover_finish',
      ]);
    }, 180_000);
  },
);
