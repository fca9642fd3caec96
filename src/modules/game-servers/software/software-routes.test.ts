import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../testing/eventually.ts';
import { orderGameServer } from '../../../testing/game-server-fixture.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';
import type { CheckUpdates, GameServersModule, UpdateCheckOptions, UpdateCheckRecord } from '../index.ts';
import type { FileDigests, SourceVersion, VersionFilter, VersionSource } from '../sources/version-source.ts';

const S = '/api/v1/client/servers';

/** Addon files the local file server serves, by name; a build's published digests are of these bytes. */
const FILES: Record<string, Buffer> = {
  'LuckPerms-1.jar': randomBytes(3000),
  'LuckPerms-2.jar': randomBytes(4000),
  'WorldEdit-7.jar': randomBytes(2000),
  'Tampered-1.jar': randomBytes(1000),
  // Larger than the SOFTWARE_MAX_BYTES the tests set.
  'Big-1.jar': randomBytes(20_000),
  // Served after a pause.
  'Slow-1.jar': randomBytes(1000),
};
const sha = (alg: string, b: Buffer) => createHash(alg).update(b).digest('hex');

/** A source as the port describes it, over a table of builds whose files the local server serves. */
function fakeSource(baseUrl: string): VersionSource {
  const build = (
    projectId: string,
    projectName: string,
    n: string,
    file: string,
    date: string,
  ): SourceVersion => ({
    source: 'modrinth',
    projectId,
    versionId: `${projectId}-v${n}`,
    projectName,
    name: `${projectName} ${n}`,
    versionNumber: n,
    releaseDate: date,
    versionType: 'release',
    loaders: ['paper'],
    gameVersions: ['1.21.3'],
    file: {
      url: `${baseUrl}/files/${file}`,
      filename: file,
      size: FILES[file]!.length,
      sha1: sha('sha1', FILES[file]!),
      // The tampered build publishes the digest of other bytes.
      sha512: sha('sha512', file === 'Tampered-1.jar' ? Buffer.from('something else') : FILES[file]!),
    },
  });
  const builds = [
    build('luckperms', 'LuckPerms', '2', 'LuckPerms-2.jar', '2026-02-01'),
    build('luckperms', 'LuckPerms', '1', 'LuckPerms-1.jar', '2026-01-01'),
    build('worldedit', 'WorldEdit', '7', 'WorldEdit-7.jar', '2026-01-05'),
    build('tampered', 'Tampered', '1', 'Tampered-1.jar', '2026-01-05'),
    build('big', 'Big', '1', 'Big-1.jar', '2026-01-05'),
    build('slow', 'Slow', '1', 'Slow-1.jar', '2026-01-05'),
  ];
  return {
    name: 'modrinth',
    enabled: () => true,
    async identify(files: readonly FileDigests[]) {
      const out = new Map<FileDigests, SourceVersion>();
      for (const f of files) {
        const b = builds.find((v) => v.file.sha1 === f.sha1);
        if (b !== undefined) out.set(f, b);
      }
      return out;
    },
    async versions(projectId: string, filter: VersionFilter) {
      return builds.filter(
        (v) =>
          v.projectId === projectId &&
          (filter.loaders.length === 0 || filter.loaders.some((l) => v.loaders.includes(l))) &&
          (filter.gameVersions.length === 0 || filter.gameVersions.some((g) => v.gameVersions.includes(g))),
      );
    },
    async version(projectId: string, versionId: string) {
      return builds.find((v) => v.projectId === projectId && v.versionId === versionId) ?? null;
    },
  };
}

interface Rec {
  record_uuid: string;
  display_name: string;
  kind: string;
  source_name: string;
  install_path: string;
  current_version: string | null;
  status: string;
  staged_version: string | null;
  can_roll_back: boolean;
}

describe('game servers: software records, jobs, staging', () => {
  let t: TestApp;
  let root: string;
  let files: HttpServer;
  let alice: string;
  let bob: { token: string; email: string };
  let carol: { token: string; email: string };
  let dave: string;
  let module: GameServersModule;

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'game-software-'));
    files = createServer((req, res) => {
      const body = FILES[decodeURIComponent((req.url ?? '').replace(/^\/files\//, ''))];
      if (body === undefined) return res.writeHead(404).end();
      const send = () => res.writeHead(200, { 'content-type': 'application/java-archive' }).end(body);
      if (req.url === '/files/Slow-1.jar') setTimeout(send, 1500);
      else send();
    });
    await new Promise<void>((done) => files.listen(0, '127.0.0.1', done));
    t = await startTestApp({
      env: {
        GAME_SERVERS_ROOT: root,
        SOFTWARE_MAX_BYTES: '10000',
        OUTBOUND_ALLOW_PRIVATE_TARGETS: 'true',
        OUTBOUND_ALLOW_HTTP: 'true',
      },
    });
    const port = (files.address() as AddressInfo).port;
    module = t.node.modules.find((m) => m.name === 'game-servers') as GameServersModule;
    module.useSources({ modrinth: fakeSource(`http://127.0.0.1:${port}`) });
    alice = (await t.signUp()).token;
    bob = await t.signUp();
    carol = await t.signUp();
    dave = (await t.signUp()).token;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((done) => (files ? files.close(() => done()) : done()));
    rmSync(root, { recursive: true, force: true });
  });

  const list = async (uuid: string, token = alice): Promise<Rec[]> => {
    const res = await t.request('GET', `${S}/${uuid}/software`, { token });
    expect(res.status, res.text).toBe(200);
    return res.body.items as Rec[];
  };
  const byName = (recs: Rec[], name: string) => recs.find((r) => r.display_name === name)!;
  const finished = async (uuid: string, jobId: string) =>
    eventually(async () => {
      const res = await t.request('GET', `${S}/${uuid}/jobs/${jobId}`, { token: alice });
      expect(res.status, res.text).toBe(200);
      expect(['completed', 'failed']).toContain(res.body.status);
      return res.body as { status: string; error: string | null; to_version: string | null };
    });
  const start = (uuid: string) =>
    t.request('POST', `${S}/${uuid}/power`, { token: alice, body: { action: 'start' } });

  it('lists files found in plugins/ and world/datapacks: known by digest, or unknown', async () => {
    const uuid = await orderGameServer(t, alice, 'minecraft-paper');
    const dir = path.join(root, uuid);
    writeFileSync(path.join(dir, 'plugins', 'LuckPerms-1.jar'), FILES['LuckPerms-1.jar']!);
    writeFileSync(path.join(dir, 'plugins', 'mystery.jar'), randomBytes(500));
    writeFileSync(path.join(dir, 'plugins', 'notes.txt'), 'not an addon');
    // A symbolic link is not read, wherever it points.
    symlinkSync(path.join(dir, 'plugins', 'LuckPerms-1.jar'), path.join(dir, 'plugins', 'link.jar'));
    writeFileSync(path.join(dir, 'world', 'datapacks', 'pack.zip'), randomBytes(300));
    const recs = await list(uuid);
    expect(recs.map((r) => [r.install_path, r.kind, r.source_name, r.current_version, r.status])).toEqual([
      ['plugins/LuckPerms-1.jar', 'plugin', 'modrinth', 'luckperms-v1', 'installed'],
      ['plugins/mystery.jar', 'plugin', 'unknown', null, 'installed'],
      ['world/datapacks/pack.zip', 'datapack', 'unknown', null, 'installed'],
    ]);
    expect(byName(recs, 'LuckPerms')).toMatchObject({
      current_version_name: 'LuckPerms 1',
      project_id: 'luckperms',
    });
    // The same records on the next scan (upserted by path); a removed file goes.
    rmSync(path.join(dir, 'world', 'datapacks', 'pack.zip'));
    const again = await list(uuid);
    expect(again.map((r) => r.record_uuid)).toEqual(recs.slice(0, 2).map((r) => r.record_uuid));

    // An unknown file is never updated.
    const unknown = byName(again, 'mystery.jar');
    const refused = await t.request('POST', `${S}/${uuid}/software/${unknown.record_uuid}/update`, {
      token: alice,
      body: {},
    });
    expect([refused.status, refused.headers.get('x-error-code')]).toEqual([
      409,
      'game_servers.not_updatable',
    ]);
    // Deleting it removes the file.
    expect(
      (await t.request('DELETE', `${S}/${uuid}/software/${unknown.record_uuid}`, { token: alice })).status,
    ).toBe(204);
    expect(existsSync(path.join(dir, 'plugins', 'mystery.jar'))).toBe(false);
    expect((await list(uuid)).map((r) => r.display_name)).toEqual(['LuckPerms']);
  });

  it('updates through a job: staged, applied at the next start with .previous kept, then rolled back', async () => {
    const uuid = await orderGameServer(t, alice, 'minecraft-paper');
    const dir = path.join(root, uuid);
    writeFileSync(path.join(dir, 'plugins', 'LuckPerms-1.jar'), FILES['LuckPerms-1.jar']!);
    const lp = byName(await list(uuid), 'LuckPerms');

    const res = await t.request('POST', `${S}/${uuid}/software/${lp.record_uuid}/update`, {
      token: alice,
      body: {},
    });
    expect(res.status, res.text).toBe(202);
    expect(res.body).toMatchObject({
      job_id: expect.any(String),
      record_uuid: lp.record_uuid,
      from_version: 'luckperms-v1',
      to_version: 'luckperms-v2',
      status: expect.stringMatching(/queued|running|completed/),
    });
    expect((await finished(uuid, res.body.job_id)).status).toBe('completed');
    expect(byName(await list(uuid), 'LuckPerms')).toMatchObject({
      status: 'pending_restart',
      current_version: 'luckperms-v1',
      staged_version: 'luckperms-v2',
    });
    // Nothing in plugins/ changes before the start.
    expect(readdirSync(path.join(dir, 'plugins'))).toEqual(['LuckPerms-1.jar']);

    const started = await start(uuid);
    expect(started.status, started.text).toBe(200);
    expect(started.body).toEqual({
      action: 'start',
      applied: [
        { record_uuid: lp.record_uuid, install_path: 'plugins/LuckPerms-2.jar', version: 'luckperms-v2' },
      ],
      process: 'not_managed',
    });
    expect(readdirSync(path.join(dir, 'plugins')).sort()).toEqual([
      'LuckPerms-1.jar.previous',
      'LuckPerms-2.jar',
    ]);
    expect(readFileSync(path.join(dir, 'plugins', 'LuckPerms-2.jar')).equals(FILES['LuckPerms-2.jar']!)).toBe(
      true,
    );
    expect(await list(uuid)).toEqual([
      expect.objectContaining({
        record_uuid: lp.record_uuid,
        install_path: 'plugins/LuckPerms-2.jar',
        current_version: 'luckperms-v2',
        status: 'installed',
        can_roll_back: true,
      }),
    ]);

    const back = await t.request('POST', `${S}/${uuid}/software/${lp.record_uuid}/rollback`, {
      token: alice,
    });
    expect(back.status, back.text).toBe(202);
    expect(back.body).toMatchObject({
      from_version: 'luckperms-v2',
      to_version: 'luckperms-v1',
      status: 'completed',
    });
    expect(byName(await list(uuid), 'LuckPerms')).toMatchObject({
      status: 'pending_restart',
      staged_version: 'luckperms-v1',
    });
    expect((await start(uuid)).body.applied).toEqual([
      { record_uuid: lp.record_uuid, install_path: 'plugins/LuckPerms-1.jar', version: 'luckperms-v1' },
    ]);
    expect(readdirSync(path.join(dir, 'plugins')).sort()).toEqual([
      'LuckPerms-1.jar',
      'LuckPerms-2.jar.previous',
    ]);
    expect(readFileSync(path.join(dir, 'plugins', 'LuckPerms-1.jar')).equals(FILES['LuckPerms-1.jar']!)).toBe(
      true,
    );
    expect(byName(await list(uuid), 'LuckPerms')).toMatchObject({
      current_version: 'luckperms-v1',
      status: 'installed',
    });
    // A second start has nothing to apply.
    expect((await start(uuid)).body.applied).toEqual([]);
  });

  it('installs a new project for a user with software.install; a reader gets 403, another account 404', async () => {
    const uuid = await orderGameServer(t, alice, 'minecraft-paper');
    for (const [who, permissions] of [
      [bob, ['software.read']],
      [carol, ['software.install']],
    ] as const) {
      const add = await t.request('POST', `${S}/${uuid}/users`, {
        token: alice,
        body: { email: who.email, permissions },
      });
      expect(add.status, add.text).toBe(200);
    }
    const body = { source: 'modrinth', project_id: 'worldedit' };
    const asBob = await t.request('POST', `${S}/${uuid}/software/install`, { token: bob.token, body });
    expect([asBob.status, asBob.headers.get('x-error-code')]).toEqual([
      403,
      'game_servers.permission_missing',
    ]);
    expect(await list(uuid, bob.token)).toEqual([]);
    expect((await t.request('POST', `${S}/${uuid}/software/install`, { token: dave, body })).status).toBe(
      404,
    );
    expect((await t.request('GET', `${S}/${uuid}/software`, { token: dave })).status).toBe(404);
    expect(
      (await t.request('POST', `${S}/${uuid}/power`, { token: bob.token, body: { action: 'start' } })).status,
    ).toBe(403);

    const res = await t.request('POST', `${S}/${uuid}/software/install`, { token: carol.token, body });
    expect(res.status, res.text).toBe(202);
    expect(res.body).toMatchObject({ from_version: null, to_version: 'worldedit-v7', action: 'install' });
    expect((await finished(uuid, res.body.job_id)).status).toBe('completed');
    expect(await list(uuid, bob.token)).toEqual([
      expect.objectContaining({
        record_uuid: res.body.record_uuid,
        display_name: 'WorldEdit',
        install_path: 'plugins/WorldEdit-7.jar',
        current_version: null,
        staged_version: 'worldedit-v7',
        status: 'pending_restart',
      }),
    ]);
    expect((await start(uuid)).body.applied).toHaveLength(1);
    expect(
      readFileSync(path.join(root, uuid, 'plugins', 'WorldEdit-7.jar')).equals(FILES['WorldEdit-7.jar']!),
    ).toBe(true);
    expect(byName(await list(uuid), 'WorldEdit')).toMatchObject({
      current_version: 'worldedit-v7',
      can_roll_back: false,
    });

    const unknownProject = await t.request('POST', `${S}/${uuid}/software/install`, {
      token: alice,
      body: { source: 'modrinth', project_id: 'nothing-here' },
    });
    expect(unknownProject.status).toBe(404);
    const offSource = await t.request('POST', `${S}/${uuid}/software/install`, {
      token: alice,
      body: { source: 'curseforge', project_id: '123' },
    });
    expect(offSource.status).toBe(409);
  });

  it('fails a job whose file is not the one the source published, changing nothing', async () => {
    const uuid = await orderGameServer(t, alice, 'minecraft-paper');
    const res = await t.request('POST', `${S}/${uuid}/software/install`, {
      token: alice,
      body: { source: 'modrinth', project_id: 'tampered' },
    });
    expect(res.status, res.text).toBe(202);
    const job = await finished(uuid, res.body.job_id);
    expect(job).toMatchObject({ status: 'failed', error: expect.stringContaining('digest mismatch') });
    expect(await list(uuid)).toEqual([]);
    expect(readdirSync(path.join(root, uuid, 'plugins'))).toEqual([]);
    expect(readdirSync(path.join(root, uuid, '.staged'))).toEqual([]);
    expect((await start(uuid)).body.applied).toEqual([]);
  });

  it('answers 202 before the download ends; fails a file larger than SOFTWARE_MAX_BYTES', async () => {
    const uuid = await orderGameServer(t, alice, 'minecraft-paper');
    const slow = await t.request('POST', `${S}/${uuid}/software/install`, {
      token: alice,
      body: { source: 'modrinth', project_id: 'slow' },
    });
    expect(slow.status, slow.text).toBe(202);
    expect(['queued', 'running']).toContain(slow.body.status);
    expect((await finished(uuid, slow.body.job_id)).status).toBe('completed');

    const big = await t.request('POST', `${S}/${uuid}/software/install`, {
      token: alice,
      body: { source: 'modrinth', project_id: 'big' },
    });
    expect(big.status, big.text).toBe(202);
    const job = await finished(uuid, big.body.job_id);
    expect(job).toMatchObject({ status: 'failed', error: 'larger than 10000 bytes' });
    expect((await list(uuid)).map((r) => r.display_name)).toEqual(['Slow']);
    expect(readdirSync(path.join(root, uuid, '.staged'))).toHaveLength(1);
  });

  it('hands the update check the server and its records found at a source, to any user', async () => {
    const uuid = await orderGameServer(t, alice, 'minecraft-paper');
    writeFileSync(path.join(root, uuid, 'plugins', 'LuckPerms-1.jar'), FILES['LuckPerms-1.jar']!);
    writeFileSync(path.join(root, uuid, 'plugins', 'unknown.jar'), randomBytes(100));

    const calls: {
      server: { uuid: string; loader: string };
      records: readonly UpdateCheckRecord[];
      options: UpdateCheckOptions;
    }[] = [];
    const check: CheckUpdates = async (server, records, options) => {
      calls.push({ server, records, options });
      const updates = records.map((r) => ({
        ...r,
        current_version_name: r.current_version_name ?? '',
        latest_version: 'luckperms-v2',
        latest: {
          version_id: 'luckperms-v2',
          name: 'LuckPerms 2',
          release_date: '2026-02-01',
          version_type: 'release',
        },
        update_available: true,
        checked_at: new Date(0).toISOString(),
      }));
      return { updates, sources_off: [] };
    };
    module.useUpdateCheck(check);
    await t.request('POST', `${S}/${uuid}/users`, {
      token: alice,
      body: { email: bob.email, permissions: [] },
    });
    const res = await t.request('GET', `${S}/${uuid}/updates`, { token: bob.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.updates).toEqual([
      expect.objectContaining({
        display_name: 'LuckPerms',
        install_path: 'plugins/LuckPerms-1.jar',
        current_version: 'luckperms-v1',
        latest_version: 'luckperms-v2',
        update_available: true,
      }),
    ]);
    expect(calls[0]!.server).toMatchObject({ uuid, loader: 'paper', game_version: '1.21.3' });
    expect(calls[0]!.records.map((r) => r.project_id)).toEqual(['luckperms']);
    expect(calls[0]!.options).toMatchObject({ onlyAvailable: true, includePrerelease: false });
    const all = await t.request('GET', `${S}/${uuid}/software/updates?all=true&include_prerelease=true`, {
      token: alice,
    });
    expect(all.status, all.text).toBe(200);
    expect(calls[1]!.options).toMatchObject({ onlyAvailable: false, includePrerelease: true });
    expect((await t.request('GET', `${S}/${uuid}/updates`, { token: dave })).status).toBe(404);
  });

  it('refuses the ninth software change in 10 minutes on a server (429), not counting another account’s calls', async () => {
    const uuid = await orderGameServer(t, alice, 'minecraft-paper');
    writeFileSync(path.join(root, uuid, 'plugins', 'other.jar'), randomBytes(100));
    const rec = (await list(uuid))[0]!;
    const rollback = (token: string) =>
      t.request('POST', `${S}/${uuid}/software/${rec.record_uuid}/rollback`, { token });
    for (let i = 0; i < 3; i++) expect((await rollback(dave)).status).toBe(404);
    for (let i = 0; i < 8; i++) expect((await rollback(alice)).status).toBe(409);
    const refused = await rollback(alice);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      detail: {
        error: 'rate_limited',
        message: 'Too many requests for this action. Please wait and try again.',
        action: 'container.software',
        retry_after_seconds: 600,
      },
    });
    expect(refused.headers.get('retry-after')).toBe('600');
    // Reading is not counted.
    expect((await t.request('GET', `${S}/${uuid}/software`, { token: alice })).status).toBe(200);
  });
});
