import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startModrinthServer, type ModrinthServer } from '../../../testing/modrinth-server.ts';
import { fileDigests } from './file-digests.ts';
import { ModrinthSource } from './modrinth-source.ts';
import { GuardedSourceHttp } from './source-http.ts';
import { SourceUnavailable } from './version-source.ts';

const jar = (text: string) => Buffer.from(`PK\u0003\u0004 ${text}`);
const LP_OLD = jar('luckperms 5.4.100');
const LP_NEW = jar('luckperms 5.4.140');
const SODIUM = jar('sodium 0.6.0');
const USER_AGENT = 'test-platform/1.0 (ops@example.test)';

async function reason(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'answered';
  } catch (e) {
    return e instanceof SourceUnavailable ? `${e.source}:${e.reason}` : `other: ${String(e)}`;
  }
}

describe('the Modrinth source', () => {
  let server: ModrinthServer;
  let http: GuardedSourceHttp;
  let source: ModrinthSource;

  beforeAll(async () => {
    server = await startModrinthServer([
      {
        id: 'Vebnzrzj',
        slug: 'luckperms',
        title: 'LuckPerms',
        versions: [
          {
            id: 'lp100',
            version_number: '5.4.100',
            date_published: '2024-05-01T10:00:00Z',
            loaders: ['bukkit', 'paper'],
            game_versions: ['1.20.6', '1.21.1'],
            filename: 'LuckPerms-Bukkit-5.4.100.jar',
            bytes: LP_OLD,
          },
          {
            id: 'lp140',
            version_number: '5.4.140',
            date_published: '2024-09-01T10:00:00Z',
            loaders: ['bukkit', 'paper'],
            game_versions: ['1.21.1'],
            filename: 'LuckPerms-Bukkit-5.4.140.jar',
            bytes: LP_NEW,
          },
          {
            id: 'lpfab',
            version_number: '5.4.140-fabric',
            date_published: '2024-09-02T10:00:00Z',
            loaders: ['fabric'],
            game_versions: ['1.21.1'],
            filename: 'LuckPerms-Fabric-5.4.140.jar',
            bytes: jar('luckperms fabric'),
          },
        ],
      },
      {
        id: 'AANobbMI',
        slug: 'sodium',
        title: 'Sodium',
        versions: [
          {
            id: 'sod060',
            version_number: 'mc1.21.1-0.6.0',
            date_published: '2024-10-01T10:00:00Z',
            version_type: 'beta',
            loaders: ['fabric', 'quilt'],
            game_versions: ['1.21.1'],
            filename: 'sodium-fabric-0.6.0.jar',
            bytes: SODIUM,
          },
        ],
      },
    ]);
    http = new GuardedSourceHttp({ allowPrivate: true, allowHttp: true });
    source = new ModrinthSource(http, { apiUrl: server.url, userAgent: USER_AGENT });
  });
  afterAll(async () => {
    await http?.close();
    await server?.close();
  });
  afterEach(() => server.fail('none'));

  it('identifies files by SHA-512 in one request, with the project’s title; unknown files are absent', async () => {
    const files = [fileDigests(LP_OLD), fileDigests(SODIUM), fileDigests(jar('my own plugin'))];
    const before = server.apiRequests().length;
    const found = await source.identify(files);
    expect(found.size).toBe(2);
    const lp = found.get(files[0]!)!;
    expect(lp).toMatchObject({
      source: 'modrinth',
      projectId: 'Vebnzrzj',
      versionId: 'lp100',
      projectName: 'LuckPerms',
      versionNumber: '5.4.100',
      versionType: 'release',
      releaseDate: '2024-05-01T10:00:00.000Z',
      file: { filename: 'LuckPerms-Bukkit-5.4.100.jar', size: LP_OLD.length, sha512: files[0]!.sha512 },
    });
    expect(found.get(files[1]!)!.versionType).toBe('beta');
    expect(found.has(files[2]!)).toBe(false);
    const sent = server.apiRequests().slice(before);
    expect(sent[0]).toMatchObject({ method: 'POST', url: '/v2/version_files' });
    expect(JSON.parse(sent[0]!.body)).toEqual({ hashes: files.map((f) => f.sha512), algorithm: 'sha512' });
    expect(sent.every((r) => r.headers['user-agent'] === USER_AGENT)).toBe(true);
  });

  it('lists a project’s builds for a loader and game version, newest first, filters sent as JSON arrays', async () => {
    const paper = await source.versions('Vebnzrzj', {
      loaders: ['paper', 'spigot'],
      gameVersions: ['1.21.1'],
    });
    expect(paper.map((v) => v.versionId)).toEqual(['lp140', 'lp100']);
    const last = server.apiRequests().at(-1)!;
    const query = new URL(last.url, server.url).searchParams;
    expect(query.get('loaders')).toBe('["paper","spigot"]');
    expect(query.get('game_versions')).toBe('["1.21.1"]');
    expect(last.url).toContain('loaders=%5B%22paper%22%2C%22spigot%22%5D');

    expect(
      (await source.versions('Vebnzrzj', { loaders: ['paper'], gameVersions: ['1.20.6'] })).map(
        (v) => v.versionId,
      ),
    ).toEqual(['lp100']);
    expect(
      (await source.versions('Vebnzrzj', { loaders: ['fabric'], gameVersions: [] })).map((v) => v.versionId),
    ).toEqual(['lpfab']);
    expect(await source.versions('nosuchproject', { loaders: [], gameVersions: [] })).toEqual([]);
  });

  it('reads one build, and only as a build of the project asked for', async () => {
    expect((await source.version('Vebnzrzj', 'lp140'))?.versionNumber).toBe('5.4.140');
    expect(await source.version('AANobbMI', 'lp140')).toBeNull();
    expect(await source.version('Vebnzrzj', 'missing')).toBeNull();
  });

  it('serves each build’s file with the hashes it lists, and a wrong file when told to', async () => {
    const v = (await source.version('Vebnzrzj', 'lp140'))!;
    const sha512 = async () =>
      createHash('sha512')
        .update(Buffer.from(await (await fetch(v.file.url)).arrayBuffer()))
        .digest('hex');
    expect(await sha512()).toBe(v.file.sha512);
    server.serveWrongFile(new URL(v.file.url).pathname, jar('tampered'));
    expect(await sha512()).not.toBe(v.file.sha512);
  });

  it('makes a source that answers 500, closes the connection or answers other than JSON unavailable', async () => {
    for (const mode of ['status500', 'close', 'garbage'] as const) {
      server.fail(mode);
      expect(await reason(source.versions('Vebnzrzj', { loaders: [], gameVersions: [] }))).toBe(
        'modrinth:failed',
      );
      expect(await reason(source.identify([fileDigests(LP_OLD)]))).toBe('modrinth:failed');
    }
  });

  it('makes a source that does not answer in time unavailable', async () => {
    const impatient = new GuardedSourceHttp({ allowPrivate: true, allowHttp: true, timeoutMs: 300 });
    const slow = new ModrinthSource(impatient, { apiUrl: server.url, userAgent: USER_AGENT });
    server.fail('hang');
    try {
      const started = performance.now();
      const failure = await slow.version('Vebnzrzj', 'lp140').catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(SourceUnavailable);
      expect((failure as Error).message).toMatch(/no answer within 0.3 s/);
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      await impatient.close();
    }
  });

  it('answers SHA-1 lookups too, and refuses an unknown algorithm as Modrinth does', async () => {
    const post = (body: unknown) =>
      fetch(`${server.url}/v2/version_files`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT },
        body: JSON.stringify(body),
      });
    const sha1 = fileDigests(LP_NEW).sha1;
    const byHash = (await (await post({ hashes: [sha1], algorithm: 'sha1' })).json()) as Record<
      string,
      { id: string }
    >;
    expect(byHash[sha1]?.id).toBe('lp140');
    const refused = await post({ hashes: [sha1], algorithm: 'md5' });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: 'invalid_input' });
  });

  it('refuses loopback and private addresses unless allowed (production settings)', async () => {
    const guarded = new GuardedSourceHttp({ allowPrivate: false, allowHttp: true });
    const strict = new ModrinthSource(guarded, { apiUrl: server.url, userAgent: USER_AGENT });
    const before = server.requests.length;
    try {
      const failure = await strict.version('Vebnzrzj', 'lp140').catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(SourceUnavailable);
      expect((failure as Error).message).toMatch(/private or reserved/);
      expect(server.requests.length).toBe(before);
    } finally {
      await guarded.close();
    }
  });
});
