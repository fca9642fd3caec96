import { createHash } from 'node:crypto';
import http from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GameSourceServer } from '../../../testing/game-source-server.ts';
import { startPaperServer } from '../../../testing/paper-server.ts';
import { PaperBuilds, SoftwareBuildsUnavailable } from './paper-builds.ts';
import { GuardedSourceHttp } from './source-http.ts';

const USER_AGENT = 'test-platform/1.0 (ops@example.test)';
const jar = (text: string) => Buffer.from(`PK\u0003\u0004 ${text}`);

function rawGet(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
      .on('error', reject);
  });
}

describe('Paper’s builds (Fill v3)', () => {
  let server: GameSourceServer;
  let client: GuardedSourceHttp;
  let paper: PaperBuilds;

  beforeAll(async () => {
    server = await startPaperServer({
      paper: {
        '1.21.1': [
          { id: 130, time: '2024-10-01T10:00:00Z', channel: 'STABLE', bytes: jar('paper 130') },
          { id: 131, time: '2024-10-02T10:00:00Z', channel: 'STABLE', bytes: jar('paper 131') },
          { id: 132, time: '2024-10-03T10:00:00Z', channel: 'BETA', bytes: jar('paper 132') },
        ],
        '1.21.9': [{ id: 3, time: '2025-09-30T10:00:00Z', channel: 'ALPHA', bytes: jar('paper 1.21.9 3') }],
      },
    });
    client = new GuardedSourceHttp({ allowPrivate: true, allowHttp: true });
    paper = new PaperBuilds(client, { apiUrl: server.url, userAgent: USER_AGENT });
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
  });
  afterEach(() => server.fail('none'));

  it('answers the newest stable build, with the User-Agent Fill requires', async () => {
    const latest = await paper.latestBuild('paper', '1.21.1');
    expect(latest).toMatchObject({ build: 131, channel: 'STABLE' });
    const sha256 = createHash('sha256').update(jar('paper 131')).digest('hex');
    expect(latest?.url).toBe(`${server.url}/v1/objects/${sha256}/paper-1.21.1-131.jar`);
    const last = server.apiRequests().at(-1)!;
    expect(last.url).toBe('/v3/projects/paper/versions/1.21.1/builds');
    expect(last.headers['user-agent']).toBe(USER_AGENT);
    expect(await rawGet(`${server.url}${last.url}`, {})).toBe(400);
  });

  it('answers the newest build of any channel when no stable one exists, null for an unknown version', async () => {
    expect(await paper.latestBuild('paper', '1.21.9')).toMatchObject({ build: 3, channel: 'ALPHA' });
    expect(await paper.latestBuild('paper', '1.99')).toBeNull();
    expect(await paper.latestBuild('nosuchproject', '1.21.1')).toBeNull();
  });

  it('fails on a 500, a closed connection or an answer that is not JSON', async () => {
    for (const mode of ['status500', 'close', 'garbage'] as const) {
      server.fail(mode);
      await expect(paper.latestBuild('paper', '1.21.1')).rejects.toBeInstanceOf(SoftwareBuildsUnavailable);
    }
  });
});
