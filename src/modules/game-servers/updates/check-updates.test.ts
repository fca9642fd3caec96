import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../testing/manual-clock.ts';
import { startCurseForgeServer, type CurseForgeServer } from '../../../testing/curseforge-server.ts';
import { startModrinthServer, type ModrinthServer } from '../../../testing/modrinth-server.ts';
import { CachedVersionSource } from '../sources/cached-source.ts';
import { CurseForgeSource } from '../sources/curseforge-source.ts';
import { ModrinthSource } from '../sources/modrinth-source.ts';
import { GuardedSourceHttp } from '../sources/source-http.ts';
import type { VersionSource, VersionType } from '../sources/version-source.ts';
import { checkUpdates, type UpdateRecord } from './check-updates.ts';

const jar = (text: string) => Buffer.from(`PK\u0003\u0004 ${text}`);
const UA = 'test-platform/1.0 (ops@example.test)';
const SERVER = { loader: 'paper', game_version: '1.21.1' };

const plugin = (
  id: string,
  version_number: string,
  day: number,
  games: string[],
  type: VersionType = 'release',
) => ({
  id,
  version_number,
  date_published: new Date(Date.UTC(2024, 8, day)).toISOString(),
  version_type: type,
  loaders: ['bukkit', 'paper'],
  game_versions: games,
  filename: `${id}.jar`,
  bytes: jar(id),
});

function record(
  uuid: string,
  source: UpdateRecord['source_name'],
  project: string | null,
  current: string | null,
) {
  return {
    record_uuid: uuid,
    display_name: `Plugin ${uuid}`,
    kind: 'plugin',
    source_name: source,
    project_id: project,
    install_path: `plugins/${uuid}.jar`,
    current_version: current,
    current_version_name: current,
  } satisfies UpdateRecord;
}

const RECORDS: UpdateRecord[] = [
  record('lp', 'modrinth', 'Vebnzrzj', 'lp100'),
  record('essx', 'modrinth', 'hXiIvTyT', 'essx27'),
  record('mine', 'unknown', null, null),
  record('worldguard', 'curseforge', '31054', '7000001'),
];

describe('checkUpdates', () => {
  let modrinth: ModrinthServer;
  let curseforge: CurseForgeServer;
  let http: GuardedSourceHttp;

  beforeAll(async () => {
    modrinth = await startModrinthServer([
      {
        id: 'Vebnzrzj',
        slug: 'luckperms',
        title: 'LuckPerms',
        versions: [
          plugin('lp100', '5.4.100', 1, ['1.21.1']),
          plugin('lp140', '5.4.140', 5, ['1.21.1']),
          plugin('lp150b', '5.5.0-beta', 9, ['1.21.1'], 'beta'),
          plugin('lp160', '5.5.0', 12, ['1.21.4']),
        ],
      },
      {
        id: 'hXiIvTyT',
        slug: 'essentialsx',
        title: 'EssentialsX',
        versions: [plugin('essx27', '2.20.1', 3, ['1.21.1'])],
      },
    ]);
    curseforge = await startCurseForgeServer([
      {
        id: 31054,
        name: 'WorldGuard',
        files: [
          {
            id: 7000001,
            displayName: 'WorldGuard 7.0.11',
            fileName: 'worldguard-7.0.11.jar',
            fileDate: '2024-08-01T00:00:00Z',
            gameVersions: ['1.21.1'],
            bytes: jar('wg 7.0.11'),
          },
          {
            id: 7000002,
            displayName: 'WorldGuard 7.0.12',
            fileName: 'worldguard-7.0.12.jar',
            fileDate: '2024-09-01T00:00:00Z',
            gameVersions: ['1.21.1'],
            bytes: jar('wg 7.0.12'),
          },
        ],
      },
    ]);
    http = new GuardedSourceHttp({ allowPrivate: true, allowHttp: true });
  });
  afterAll(async () => {
    await http?.close();
    await modrinth?.close();
    await curseforge?.close();
  });

  function sources(clock: ManualClock, curseforgeKey: string | null = curseforge.apiKey): VersionSource[] {
    return [
      new CachedVersionSource(new ModrinthSource(http, { apiUrl: modrinth.url, userAgent: UA }), clock),
      new CachedVersionSource(
        new CurseForgeSource(http, { apiUrl: curseforge.url, apiKey: curseforgeKey, userAgent: UA }),
        clock,
      ),
    ];
  }

  it('lists each file from a source with the build to move to; files of unknown origin are never listed', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 2, 3, 4, 5));
    const answer = await checkUpdates(RECORDS, SERVER, {}, sources(clock), clock);
    expect(answer.sources_off).toEqual([]);
    expect(
      answer.updates.map((u) => [u.record_uuid, u.update_available, u.latest?.version_id ?? null]),
    ).toEqual([
      ['lp', true, 'lp140'],
      ['essx', false, 'essx27'],
      ['worldguard', true, '7000002'],
    ]);
    expect(answer.updates[0]).toEqual({
      record_uuid: 'lp',
      display_name: 'Plugin lp',
      kind: 'plugin',
      source_name: 'modrinth',
      install_path: 'plugins/lp.jar',
      current_version: 'lp100',
      current_version_name: 'lp100',
      latest: {
        version_id: 'lp140',
        name: 'LuckPerms 5.4.140',
        release_date: '2024-09-05T00:00:00.000Z',
        version_type: 'release',
      },
      update_available: true,
      checked_at: '2026-01-02T03:04:05.000Z',
    });
  });

  it('offers the newest prerelease when asked, and checks against a game version the server moves to', async () => {
    const clock = new ManualClock();
    const pre = await checkUpdates(
      RECORDS,
      SERVER,
      { include_prerelease: true, sources: ['modrinth'] },
      sources(clock),
      clock,
    );
    expect(pre.updates.map((u) => [u.record_uuid, u.latest?.version_id, u.latest?.version_type])).toEqual([
      ['lp', 'lp150b', 'beta'],
      ['essx', 'essx27', 'release'],
    ]);
    const moving = await checkUpdates(
      RECORDS,
      SERVER,
      { game_version: '1.21.4', sources: ['modrinth'] },
      sources(clock),
      clock,
    );
    expect(
      moving.updates.map((u) => [u.record_uuid, u.update_available, u.latest?.version_id ?? null]),
    ).toEqual([
      ['lp', true, 'lp160'],
      ['essx', false, null],
    ]);
  });

  it('names CurseForge among the sources off without a key; its files carry an error, the others are checked', async () => {
    const clock = new ManualClock();
    const before = curseforge.requests.length;
    const answer = await checkUpdates(RECORDS, SERVER, {}, sources(clock, null), clock);
    expect(answer.sources_off).toEqual(['curseforge']);
    const wg = answer.updates.find((u) => u.record_uuid === 'worldguard')!;
    expect(wg).toMatchObject({ latest: null, update_available: false, error: 'curseforge is off' });
    expect(answer.updates.find((u) => u.record_uuid === 'lp')?.update_available).toBe(true);
    expect(curseforge.requests.length).toBe(before);
  });

  it('gives the entries of a source that fails an error, and only those', async () => {
    const clock = new ManualClock();
    modrinth.fail('status500');
    try {
      const answer = await checkUpdates(RECORDS, SERVER, {}, sources(clock), clock);
      const byId = new Map(answer.updates.map((u) => [u.record_uuid, u]));
      for (const id of ['lp', 'essx']) {
        expect(byId.get(id)).toMatchObject({
          latest: null,
          update_available: false,
          error: 'Modrinth answered HTTP 500',
        });
      }
      expect(byId.get('worldguard')).toMatchObject({
        update_available: true,
        latest: { version_id: '7000002' },
      });
      expect(byId.get('worldguard')).not.toHaveProperty('error');
      expect(answer.sources_off).toEqual([]);
    } finally {
      modrinth.fail('none');
    }
  });

  it('asks each source again only after 10 minutes', async () => {
    const clock = new ManualClock();
    const cached = sources(clock);
    const asked = () => modrinth.apiRequests().length + curseforge.apiRequests().length;
    const start = asked();
    const first = await checkUpdates(RECORDS, SERVER, {}, cached, clock);
    const afterFirst = asked();
    expect(afterFirst - start).toBe(6); // three files, each its build and the project's builds
    clock.advance(9 * 60_000 + 59_000);
    const second = await checkUpdates(RECORDS, SERVER, {}, cached, clock);
    expect(asked()).toBe(afterFirst);
    expect(second.updates.map((u) => u.latest)).toEqual(first.updates.map((u) => u.latest));
    clock.advance(2_000);
    await checkUpdates(RECORDS, SERVER, {}, cached, clock);
    expect(asked()).toBe(afterFirst + 6);
  });
});
