/**
 * `npm run dns -- check-zones | transfer-zone` as platform staff run them (the CLI through tsx,
 * on the product's database): zones from before the zone-tree rules are listed, not deleted, and
 * moved to their rightful holder with an audit entry; a move that would break the rules is refused.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/kernel/config/load-config.ts';
import { createLogger } from '../../src/kernel/log/logger.ts';
import { closeRuntime, openRuntime } from '../../src/kernel/runtime/open-runtime.ts';
import { tablesOf } from '../../src/kernel/runtime/runtime.ts';
import { CONFIG_SECTIONS } from '../../src/apps/platform-modules.ts';
import { createOrg } from '../../src/testing/org-fixture.ts';
import { startTestApp, type TestApp } from '../../src/testing/test-app.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ZONES = '/api/v1/dns/zones';
const DATABASE_URL = process.env.DATABASE_URL;
const dir = mkdtempSync(path.join(tmpdir(), 'dns-cli-'));
const DATA_DIR = path.join(dir, 'data');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of several modules' tables
type AnyDb = Kysely<any>;

describe('npm run dns -- check-zones | transfer-zone', () => {
  let t: TestApp;
  let stopped = false;
  let alice: { token: string; email: string; id: number };
  let bob: { token: string; email: string; id: number };
  let orgId: number;

  const cliEnv = (): Record<string, string> => ({
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? ROOT,
    DATA_DIR,
    NAMESERVERS: 'ns1.cli.example,ns2.cli.example',
    ...(DATABASE_URL !== undefined ? { DATABASE_URL, DATABASE_SCHEMA: t.databaseSchema! } : {}),
  });
  const dnsCli = (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', 'src/apps/dns-cli.ts', ...args],
        { cwd: ROOT, env: cliEnv() },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
  /** The product's tables: the running app's on PostgreSQL; the embedded database opened anew once it stopped. */
  const withDb = async <T>(fn: (db: AnyDb) => Promise<T>): Promise<T> => {
    if (!stopped) return fn(tablesOf(t.node.runtime));
    const runtime = await openRuntime(
      loadConfig({ DATA_DIR, NAMESERVERS: 'ns1.cli.example' }, CONFIG_SECTIONS),
      createLogger('silent'),
    );
    try {
      return await fn(tablesOf(runtime));
    } finally {
      await closeRuntime(runtime);
    }
  };
  const zone = (domain: string) =>
    withDb((db) => db.selectFrom('dns_zones').selectAll().where('domain', '=', domain).executeTakeFirst());

  beforeAll(async () => {
    t = await startTestApp({
      persistent: true,
      env: { DATA_DIR, NAMESERVERS: 'ns1.cli.example,ns2.cli.example' },
    });
    const signUp = async () => {
      const user = await t.signUp();
      const me = await t.request('POST', ZONES, {
        token: user.token,
        body: { domain: `${user.email.split('@')[0]}.cli-own.example` },
      });
      return { ...user, id: Number(me.body.user_id) };
    };
    alice = await signUp();
    bob = await signUp();
    orgId = (await createOrg(t, bob.token, 'rightful-org')).id;
    // Zones from before the rules: inserted as they were then, the API refuses them now.
    await withDb(async (db) => {
      for (const [userId, domain] of [
        [alice.id, 'co.uk'],
        [bob.id, 'bob.co.uk'],
        [alice.id, 'stolen.example'],
        [bob.id, 'x.stolen.example'],
      ] as const) {
        await db
          .insertInto('dns_zones')
          .values({ user_id: userId, org_id: null, domain, serial: 2026010100 })
          .execute();
      }
    });
    // A lawful tree of alice's: team.example delegates sub.team.example.
    for (const domain of ['team.example', 'sub.team.example'])
      expect((await t.request('POST', ZONES, { token: alice.token, body: { domain } })).status).toBe(201);
    if (DATABASE_URL === undefined) {
      // The embedded database is one process's: the CLI opens it once the product has stopped.
      await t.node.stop();
      stopped = true;
    }
  }, 120_000);
  afterAll(async () => {
    if (!stopped) await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers its usage (exit 2) to anything else', async () => {
    for (const args of [['transfer-zone', 'stolen.example'], ['delete-zone']]) {
      const res = await dnsCli(...args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr).toContain('usage: npm run dns -- check-zones | transfer-zone <zone>');
    }
  }, 60_000);

  it('lists the zones that break the rules, and deletes none', async () => {
    const before = await withDb((db) => db.selectFrom('dns_zones').select('domain').execute());
    const res = await dnsCli('check-zones');
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout.trim().split('\n')).toEqual([
      `bob.co.uk (account ${bob.id}): inside co.uk (account ${alice.id})`,
      `co.uk (account ${alice.id}): a public suffix`,
      `x.stolen.example (account ${bob.id}): inside stolen.example (account ${alice.id})`,
      '3 zone problem(s); nothing changed',
    ]);
    const after = await withDb((db) => db.selectFrom('dns_zones').select('domain').execute());
    expect(after.length).toBe(before.length);
  }, 60_000);

  it('refuses moves that would break the rules, and unknown zones or holders (exit 1)', async () => {
    for (const [args, message] of [
      [['co.uk', bob.email], 'co.uk: a public suffix, no holder may have it'],
      [
        ['sub.team.example', 'rightful-org'],
        'sub.team.example: sub.team.example would be inside or above team.example, held by another',
      ],
      [['stolen.example', alice.email], `stolen.example: already held by account ${alice.email}`],
      [['nope.example', bob.email], 'nope.example: no such zone'],
      [['stolen.example', 'nobody@cli.example'], 'nobody@cli.example: no such account'],
      [['stolen.example', 'no-such-org'], 'no-such-org: no such organization'],
    ] as const) {
      const res = await dnsCli('transfer-zone', ...args);
      expect(res.code, args.join(' ')).toBe(1);
      expect(res.stderr.trim()).toBe(message);
    }
    expect(await zone('sub.team.example')).toMatchObject({ user_id: alice.id, org_id: null });
    const audit = await withDb((db) =>
      db.selectFrom('audit_log').selectAll().where('action', '=', 'dns.zone.transfer').execute(),
    );
    expect(audit).toEqual([]);
  }, 120_000);

  it('moves a zone to its rightful holder, audited, and the delegations follow', async () => {
    const moved = await dnsCli('transfer-zone', 'stolen.example', bob.email);
    expect(moved.stderr).toBe('');
    expect(moved.stdout.trim()).toBe(
      `stolen.example: moved from account ${alice.id} to account ${bob.email}`,
    );
    const stolen = (await zone('stolen.example'))!;
    expect(stolen).toMatchObject({ user_id: bob.id, org_id: null });
    // Now one holder's: stolen.example delegates x.stolen.example by managed NS records.
    const ns = await withDb((db) =>
      db
        .selectFrom('dns_records')
        .select(['name', 'content', 'managed_by'])
        .where('zone_id', '=', stolen.id)
        .orderBy('content')
        .execute(),
    );
    expect(ns).toEqual([
      { name: 'x.stolen.example', content: 'ns1.cli.example.', managed_by: 'dns' },
      { name: 'x.stolen.example', content: 'ns2.cli.example.', managed_by: 'dns' },
    ]);
    expect(Number(stolen.serial)).toBeGreaterThan(2026010100);

    // An organization's slug; the zones below of the same holder go along.
    const team = await dnsCli('transfer-zone', 'team.example', 'rightful-org');
    expect(team.stdout.trim()).toBe(
      `team.example: moved from account ${alice.id} to organization rightful-org with sub.team.example`,
    );
    for (const domain of ['team.example', 'sub.team.example'])
      expect(await zone(domain)).toMatchObject({ user_id: bob.id, org_id: orgId, service_id: null });

    const audit = await withDb((db) =>
      db
        .selectFrom('audit_log')
        .select(['org_id', 'actor_user_id', 'actor_realm', 'resource_type', 'resource_id'])
        .where('action', '=', 'dns.zone.transfer')
        .orderBy('id')
        .execute(),
    );
    const teamId = String((await zone('team.example'))!.id);
    expect(audit).toEqual([
      {
        org_id: null,
        actor_user_id: null,
        actor_realm: 'platform',
        resource_type: 'zone',
        resource_id: String(stolen.id),
      },
      {
        org_id: null,
        actor_user_id: null,
        actor_realm: 'platform',
        resource_type: 'zone',
        resource_id: teamId,
      },
      {
        org_id: orgId,
        actor_user_id: null,
        actor_realm: 'platform',
        resource_type: 'zone',
        resource_id: teamId,
      },
    ]);
    const check = await dnsCli('check-zones');
    expect(check.stdout.trim().split('\n')).toEqual([
      `bob.co.uk (account ${bob.id}): inside co.uk (account ${alice.id})`,
      `co.uk (account ${alice.id}): a public suffix`,
      '2 zone problem(s); nothing changed',
    ]);
  }, 120_000);
});
