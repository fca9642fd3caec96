/**
 * End to end: the product started with its real Modrinth, CurseForge and Paper adapters pointed at
 * the local servers that speak those APIs; files dropped into a server's folder, then everything
 * over HTTP (identification, update checks, jobs, the next start, the server's latest Paper build).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCurseForgeServer, type CurseForgeServer } from '../../testing/curseforge-server.ts';
import { eventually } from '../../testing/eventually.ts';
import { orderGameServer } from '../../testing/game-server-fixture.ts';
import { ManualClock } from '../../testing/manual-clock.ts';
import { startModrinthServer, type ModrinthServer } from '../../testing/modrinth-server.ts';
import { startPaperServer } from '../../testing/paper-server.ts';
import type { GameSourceServer } from '../../testing/game-source-server.ts';
import { startTestApp, type TestApp } from '../../testing/test-app.ts';

const S = '/api/v1/client/servers';
/** The game version of the catalogue's minecraft-paper servers. */
const GAME = '1.21.3';
const NEXT = '1.21.4';

const bytes = (label: string) => Buffer.concat([Buffer.from(label), randomBytes(2000)]);
const LP = {
  v1: bytes('lp1'),
  v2: bytes('lp2'),
  beta: bytes('lp3'),
  fabric: bytes('lp4'),
  next: bytes('lp5'),
};
const CHUNKY = { v1: bytes('ch1'), beta: bytes('ch2') };
const WG = { v1: bytes('wg1'), v2: bytes('wg2'), fabric: bytes('wg3') };

const modrinthVersion = (
  id: string,
  version_number: string,
  date: string,
  b: Buffer,
  extra: { version_type?: 'release' | 'beta'; loaders?: string[]; game_versions?: string[] } = {},
) => ({
  id,
  version_number,
  date_published: `${date}T00:00:00Z`,
  version_type: extra.version_type ?? 'release',
  loaders: extra.loaders ?? ['paper', 'bukkit'],
  game_versions: extra.game_versions ?? [GAME],
  filename: `${id}.jar`,
  bytes: b,
});

interface Entry {
  record_uuid: string;
  display_name: string;
  source_name: string;
  install_path: string;
  current_version: string;
  latest_version: string | null;
  latest: { version_id: string } | null;
  update_available: boolean;
  error?: string;
}

describe('game servers against local Modrinth, CurseForge and Paper servers', () => {
  const clock = new ManualClock(Date.UTC(2026, 5, 1));
  let root: string;
  let modrinth: ModrinthServer;
  let curseforge: CurseForgeServer;
  let paper: GameSourceServer;
  let t: TestApp;
  let user: { email: string; token: string };

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'game-sources-'));
    modrinth = await startModrinthServer([
      {
        id: 'LPaaaaaa',
        slug: 'luckperms',
        title: 'LuckPerms',
        versions: [
          modrinthVersion('lp-1', '5.4.0', '2026-01-01', LP.v1),
          modrinthVersion('lp-2', '5.4.1', '2026-02-01', LP.v2),
          modrinthVersion('lp-3', '5.5.0-beta', '2026-03-01', LP.beta, { version_type: 'beta' }),
          modrinthVersion('lp-4', '5.6.0', '2026-04-01', LP.fabric, { loaders: ['fabric'] }),
          modrinthVersion('lp-5', '5.7.0', '2026-05-01', LP.next, { game_versions: [NEXT] }),
        ],
      },
      {
        id: 'CHaaaaaa',
        slug: 'chunky',
        title: 'Chunky',
        versions: [
          modrinthVersion('ch-1', '1.0.0', '2026-01-01', CHUNKY.v1),
          modrinthVersion('ch-2', '1.1.0-beta', '2026-02-01', CHUNKY.beta, { version_type: 'beta' }),
        ],
      },
    ]);
    curseforge = await startCurseForgeServer([
      {
        id: 1001,
        name: 'WorldGuard',
        files: [
          {
            id: 5001,
            displayName: 'WorldGuard 7.0.0',
            fileName: 'worldguard-7.0.0.jar',
            fileDate: '2026-01-01T00:00:00Z',
            gameVersions: [GAME],
            bytes: WG.v1,
          },
          {
            id: 5002,
            displayName: 'WorldGuard 7.0.1',
            fileName: 'worldguard-7.0.1.jar',
            fileDate: '2026-02-01T00:00:00Z',
            gameVersions: [GAME],
            bytes: WG.v2,
          },
          {
            id: 5003,
            displayName: 'WorldGuard Fabric',
            fileName: 'worldguard-fabric.jar',
            fileDate: '2026-03-01T00:00:00Z',
            gameVersions: [GAME, 'Fabric'],
            bytes: WG.fabric,
          },
        ],
      },
    ]);
    paper = await startPaperServer({
      paper: {
        [GAME]: [
          { id: 100, time: '2026-01-01T00:00:00Z', channel: 'STABLE', bytes: bytes('p100') },
          { id: 101, time: '2026-02-01T00:00:00Z', channel: 'STABLE', bytes: bytes('p101') },
          { id: 102, time: '2026-03-01T00:00:00Z', channel: 'BETA', bytes: bytes('p102') },
        ],
      },
    });
    t = await startTestApp({ clock, env: env(curseforge.apiKey) });
    const signed = await t.signUp();
    user = { email: signed.email, token: signed.token };
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await Promise.all([modrinth?.close(), curseforge?.close(), paper?.close()]);
    rmSync(root, { recursive: true, force: true });
  });

  function env(curseforgeKey: string | null): Record<string, string> {
    return {
      GAME_SERVERS_ROOT: root,
      OUTBOUND_ALLOW_PRIVATE_TARGETS: 'true',
      OUTBOUND_ALLOW_HTTP: 'true',
      MODRINTH_API_URL: modrinth.url,
      CURSEFORGE_API_URL: curseforge.url,
      PAPER_API_URL: paper.url,
      ...(curseforgeKey === null ? {} : { CURSEFORGE_API_KEY: curseforgeKey }),
    };
  }

  const get = async (app: TestApp, url: string) => {
    const res = await app.request('GET', url, { token: user.token });
    expect(res.status, res.text).toBe(200);
    return res.body as { updates: Entry[]; sources_off: string[] };
  };
  /** A Paper server with LuckPerms 5.4.0, Chunky 1.0.0, WorldGuard 7.0.0 and an unknown jar. */
  const serverWithPlugins = async (app: TestApp = t) => {
    const uuid = await orderGameServer(app, user.token, 'minecraft-paper');
    const plugins = path.join(root, uuid, 'plugins');
    writeFileSync(path.join(plugins, 'LuckPerms.jar'), LP.v1);
    writeFileSync(path.join(plugins, 'Chunky.jar'), CHUNKY.v1);
    writeFileSync(path.join(plugins, 'WorldGuard.jar'), WG.v1);
    writeFileSync(path.join(plugins, 'mystery.jar'), randomBytes(700));
    return uuid;
  };
  const byPath = (entries: Entry[], name: string) =>
    entries.find((e) => e.install_path === `plugins/${name}`);

  it('identifies jars by hash at Modrinth and by fingerprint at CurseForge; an unknown file stays unknown', async () => {
    const uuid = await serverWithPlugins();
    const res = await t.request('GET', `${S}/${uuid}/software`, { token: user.token });
    expect(res.status, res.text).toBe(200);
    const recs = res.body.items as {
      install_path: string;
      source_name: string;
      current_version: string | null;
    }[];
    expect(recs.map((r) => [r.install_path, r.source_name, r.current_version])).toEqual([
      ['plugins/Chunky.jar', 'modrinth', 'ch-1'],
      ['plugins/LuckPerms.jar', 'modrinth', 'lp-1'],
      ['plugins/WorldGuard.jar', 'curseforge', '5001'],
      ['plugins/mystery.jar', 'unknown', null],
    ]);
  });

  it('offers a newer release over a newer beta, a beta only when no release is newer, fitting the loader and game version', async () => {
    const uuid = await serverWithPlugins();
    const answer = await get(t, `${S}/${uuid}/updates`);
    expect(answer.sources_off).toEqual([]);
    expect(answer.updates.map((e) => [e.install_path, e.latest_version])).toEqual([
      ['plugins/Chunky.jar', 'ch-2'],
      ['plugins/LuckPerms.jar', 'lp-2'],
      ['plugins/WorldGuard.jar', '5002'],
    ]);
    const lp = byPath(answer.updates, 'LuckPerms.jar')!;
    expect(Object.keys(lp).sort()).toEqual(
      [
        'checked_at',
        'current_version',
        'current_version_name',
        'display_name',
        'install_path',
        'kind',
        'latest',
        'latest_version',
        'record_uuid',
        'source_name',
        'update_available',
      ].sort(),
    );
    expect(lp).toEqual({
      record_uuid: expect.any(String),
      display_name: 'LuckPerms',
      kind: 'plugin',
      source_name: 'modrinth',
      install_path: 'plugins/LuckPerms.jar',
      current_version: 'lp-1',
      current_version_name: 'LuckPerms 5.4.0',
      latest_version: 'lp-2',
      latest: {
        version_id: 'lp-2',
        name: 'LuckPerms 5.4.1',
        release_date: '2026-02-01T00:00:00.000Z',
        version_type: 'release',
      },
      update_available: true,
      checked_at: new Date(clock.now()).toISOString(),
    });
    expect(byPath(answer.updates, 'WorldGuard.jar')).toMatchObject({
      source_name: 'curseforge',
      current_version_name: 'WorldGuard 7.0.0',
      latest: { version_id: '5002', name: 'WorldGuard 7.0.1', version_type: 'release' },
    });
  });

  it('software/updates: include_prerelease offers the newest beta, game_version checks against it, sources limits', async () => {
    const uuid = await serverWithPlugins();
    const pre = await get(t, `${S}/${uuid}/software/updates?include_prerelease=true`);
    expect(byPath(pre.updates, 'LuckPerms.jar')).toMatchObject({
      latest_version: 'lp-3',
      latest: { version_type: 'beta' },
    });
    const next = await get(t, `${S}/${uuid}/software/updates?game_version=${NEXT}`);
    expect(byPath(next.updates, 'LuckPerms.jar')).toMatchObject({ latest_version: 'lp-5' });
    const only = await get(t, `${S}/${uuid}/software/updates?sources=modrinth&all=true`);
    expect(only.updates.map((e) => e.source_name)).toEqual(['modrinth', 'modrinth']);
  });

  it('a source that fails gives an error on its own entries only', async () => {
    // The cache would answer for a project seen before: let it expire first.
    clock.advance(11 * 60_000);
    user.token = await t.signIn(user.email);
    const uuid = await serverWithPlugins();
    await t.request('GET', `${S}/${uuid}/software`, { token: user.token });
    curseforge.fail('status500');
    try {
      const answer = await get(t, `${S}/${uuid}/updates`);
      expect(byPath(answer.updates, 'WorldGuard.jar')).toMatchObject({
        source_name: 'curseforge',
        error: expect.any(String),
        update_available: false,
      });
      expect(byPath(answer.updates, 'LuckPerms.jar')).toMatchObject({ latest_version: 'lp-2' });
      expect(byPath(answer.updates, 'LuckPerms.jar')!.error).toBeUndefined();
    } finally {
      curseforge.fail('none');
    }
  });

  it('asks again at the next scan about a file dropped while its source failed', async () => {
    const uuid = await orderGameServer(t, user.token, 'minecraft-paper');
    const list = async () => {
      const res = await t.request('GET', `${S}/${uuid}/software`, { token: user.token });
      expect(res.status, res.text).toBe(200);
      return (res.body.items as { source_name: string; current_version: string | null }[]).map((r) => [
        r.source_name,
        r.current_version,
      ]);
    };
    curseforge.fail('status500');
    try {
      writeFileSync(path.join(root, uuid, 'plugins', 'WorldGuard.jar'), WG.v1);
      expect(await list()).toEqual([['unknown', null]]);
    } finally {
      curseforge.fail('none');
    }
    expect(await list()).toEqual([['curseforge', '5001']]);
  });

  it('without a CurseForge key: sources_off names it', async () => {
    const other = await startTestApp({ env: env(null) });
    try {
      const signed = await other.signUp();
      const uuid = await orderGameServer(other, signed.token, 'minecraft-paper');
      writeFileSync(path.join(root, uuid, 'plugins', 'LuckPerms.jar'), LP.v1);
      const res = await other.request('GET', `${S}/${uuid}/updates`, { token: signed.token });
      expect(res.status, res.text).toBe(200);
      expect(res.body.sources_off).toEqual(['curseforge']);
      expect(res.body.updates.map((e: Entry) => e.latest_version)).toEqual(['lp-2']);
    } finally {
      await other.close();
    }
  });

  it('keeps a project’s builds 10 minutes', async () => {
    clock.advance(11 * 60_000);
    user.token = await t.signIn(user.email);
    const uuid = await serverWithPlugins();
    const asked = () =>
      modrinth.apiRequests().filter((r) => r.url.startsWith('/v2/project/LPaaaaaa/version')).length;
    const before = asked();
    await get(t, `${S}/${uuid}/updates`);
    const first = asked();
    expect(first).toBeGreaterThan(before);
    const everything = () => modrinth.apiRequests().length + curseforge.apiRequests().length;
    const all = everything();
    await get(t, `${S}/${uuid}/updates`);
    expect(asked()).toBe(first);
    // Nothing at all: the files are unchanged (not identified again) and the builds are cached.
    expect(everything()).toBe(all);
    clock.advance(10 * 60_000 + 1000);
    user.token = await t.signIn(user.email);
    await get(t, `${S}/${uuid}/updates`);
    expect(asked()).toBeGreaterThan(first);
  });

  const finished = (uuid: string, jobId: string) =>
    eventually(async () => {
      const res = await t.request('GET', `${S}/${uuid}/jobs/${jobId}`, { token: user.token });
      expect(res.status, res.text).toBe(200);
      expect(['completed', 'failed']).toContain(res.body.status);
      return res.body as { status: string; error: string | null };
    });
  const start = (uuid: string) =>
    t.request('POST', `${S}/${uuid}/power`, { token: user.token, body: { action: 'start' } });

  it('updates from Modrinth through a job, applied at the next start, then rolled back', async () => {
    const uuid = await orderGameServer(t, user.token, 'minecraft-paper');
    const plugins = path.join(root, uuid, 'plugins');
    writeFileSync(path.join(plugins, 'LuckPerms.jar'), LP.v1);
    const [lp] = (await get(t, `${S}/${uuid}/updates`)).updates;
    const res = await t.request('POST', `${S}/${uuid}/software/${lp!.record_uuid}/update`, {
      token: user.token,
      body: {},
    });
    expect(res.status, res.text).toBe(202);
    expect(res.body).toMatchObject({ from_version: 'lp-1', to_version: 'lp-2' });
    expect((await finished(uuid, res.body.job_id)).status).toBe('completed');
    const staged = readdirSync(path.join(root, uuid, '.staged'));
    expect(staged).toHaveLength(1);
    expect(readdirSync(plugins)).toEqual(['LuckPerms.jar']);

    const started = await start(uuid);
    expect(started.status, started.text).toBe(200);
    expect(started.body.applied).toEqual([
      { record_uuid: lp!.record_uuid, install_path: 'plugins/lp-2.jar', version: 'lp-2' },
    ]);
    expect(readdirSync(plugins).sort()).toEqual(['LuckPerms.jar.previous', 'lp-2.jar']);
    expect(readFileSync(path.join(plugins, 'lp-2.jar')).equals(LP.v2)).toBe(true);

    const back = await t.request('POST', `${S}/${uuid}/software/${lp!.record_uuid}/rollback`, {
      token: user.token,
    });
    expect(back.status, back.text).toBe(202);
    expect(back.body).toMatchObject({ from_version: 'lp-2', to_version: 'lp-1' });
    expect((await start(uuid)).body.applied).toEqual([
      { record_uuid: lp!.record_uuid, install_path: 'plugins/LuckPerms.jar', version: 'lp-1' },
    ]);
    expect(readFileSync(path.join(plugins, 'LuckPerms.jar')).equals(LP.v1)).toBe(true);
  });

  it('fails a job whose download is not the file Modrinth published, changing nothing', async () => {
    const uuid = await orderGameServer(t, user.token, 'minecraft-paper');
    const plugins = path.join(root, uuid, 'plugins');
    writeFileSync(path.join(plugins, 'Chunky.jar'), CHUNKY.v1);
    modrinth.serveWrongFile('/data/CHaaaaaa/versions/ch-2/ch-2.jar', randomBytes(900));
    const [ch] = (await get(t, `${S}/${uuid}/updates`)).updates;
    const res = await t.request('POST', `${S}/${uuid}/software/${ch!.record_uuid}/update`, {
      token: user.token,
      body: {},
    });
    expect(res.status, res.text).toBe(202);
    expect(await finished(uuid, res.body.job_id)).toMatchObject({ status: 'failed' });
    expect(readdirSync(plugins)).toEqual(['Chunky.jar']);
    expect(readdirSync(path.join(root, uuid, '.staged'))).toEqual([]);
    expect((await start(uuid)).body.applied).toEqual([]);
    expect(readFileSync(path.join(plugins, 'Chunky.jar')).equals(CHUNKY.v1)).toBe(true);
  });

  it('shows a Paper server the newest stable build of its game version, null when Paper fails or for Fabric', async () => {
    const uuid = await orderGameServer(t, user.token, 'minecraft-paper');
    const read = async (id: string) => {
      const res = await t.request('GET', `${S}/${id}`, { token: user.token });
      expect(res.status, res.text).toBe(200);
      return res.body.software as { latest_build?: unknown };
    };
    expect((await read(uuid)).latest_build).toEqual({ build: 101, channel: 'STABLE' });
    expect(paper.apiRequests().at(-1)!.url).toBe(`/v3/projects/paper/versions/${GAME}/builds`);
    paper.fail('status500');
    try {
      expect((await read(uuid)).latest_build).toBeNull();
    } finally {
      paper.fail('none');
    }
    const asked = paper.apiRequests().length;
    const fabric = await orderGameServer(t, user.token, 'minecraft-fabric');
    expect((await read(fabric)).latest_build).toBeNull();
    expect(paper.apiRequests()).toHaveLength(asked);
    // Never an update entry.
    const updates = await get(t, `${S}/${uuid}/software/updates?all=true`);
    expect(updates.updates).toEqual([]);
  });
});
