import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';

const CATALOG = '/api/v1/client/containers/catalog';

describe('container catalogue', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({ env: { ROLE: 'api' } });
    token = (await t.signUp()).token;
  });
  afterAll(async () => t?.close());

  const get = (path: string, auth = true) => t.request('GET', `${CATALOG}${path}`, auth ? { token } : {});

  it('lists the specializations with a token (401 without), by category', async () => {
    expect((await get('', false)).status).toBe(401);
    const all = await get('');
    expect(all.status).toBe(200);
    expect(all.body[0]).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      slug: 'minecraft-paper',
      name: 'Paper',
      description: expect.any(String),
      runtime_template_slug: 'java-21',
      category: 'game',
      version_variable: 'MINECRAFT_VERSION',
      version_source_slug: 'papermc',
      software_identifier: 'paper',
      runtime_family: 'java',
      icon_url: null,
      color: '#2b7de9',
      group: 'Minecraft',
      org_id: null,
      default_variables: { MEMORY_PERCENT: '85', EULA: 'false' },
      metadata: { ports: [{ name: 'game', port: 25565, protocol: 'tcp' }] },
      versioned: true,
      deprecated: false,
    });
    const game = (await get('?category=game')).body.map((s: { slug: string }) => s.slug);
    expect(game).toEqual(['minecraft-paper', 'minecraft-fabric', 'minecraft-vanilla']);
    expect(all.body.find((s: { slug: string }) => s.slug === 'ghost-blog').deprecated).toBe(true);
  });

  it('composes a specialization: supported versions by default, snapshots on demand, runtimes of its family', async () => {
    const paper = await get('/minecraft-paper/compose');
    expect(paper.status).toBe(200);
    expect(paper.body.versions.map((v: { version_id: string }) => v.version_id)).toEqual([
      '1.21.3',
      '1.21.1',
      '1.20.6',
    ]);
    expect(paper.body.versions[0]).toEqual({
      version_id: '1.21.3',
      name: '1.21.3',
      release_date: '2024-10-23',
      supported: true,
      required_java: 21,
      build_number: 82,
      recommended_runtime_slug: 'java-21',
      recommended_runtime_uuid: expect.any(String),
      recommended_runtime_name: 'Java 21 (Temurin)',
      game_versions: ['1.21.3'],
      metadata: null,
      runtime_template_slug: 'java-21',
      runtime_template_uuid: expect.any(String),
    });
    expect(paper.body).toMatchObject({ adapter_type: 'minecraft_java', defaults: { version_id: '1.21.3' } });
    expect(paper.body.runtimes.map((r: { slug: string }) => r.slug)).toEqual(['java-17', 'java-21']);
    expect(paper.body.runtime_versions.map((r: { required_java: number }) => r.required_java)).toEqual([
      17, 21,
    ]);
    const all = await get('/minecraft-paper/compose?supported_only=false&limit=4');
    expect(all.body.versions).toHaveLength(4);
    const fabric = (s: string) => get(`/minecraft-fabric/compose?${s}`);
    expect(
      (await fabric('supported_only=false')).body.versions.map((v: { version_id: string }) => v.version_id),
    ).toEqual(['1.21.3', '1.20.4']);
    expect((await fabric('supported_only=false&include_snapshots=true')).body.versions).toHaveLength(3);
    const missing = await get('/nothing/compose');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: 'Specialization not found' });
    expect((await get('/minecraft-paper/compose?limit=0')).status).toBe(422);
  });
});
