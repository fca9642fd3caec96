import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderGameServer } from '../../../testing/game-server-fixture.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';

const S = '/api/v1/client/servers';

describe('game servers: order, read, users', () => {
  let t: TestApp;
  let root: string;
  let alice: { token: string; email: string };
  let bob: { token: string; email: string };
  let carol: { token: string; email: string };

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'game-servers-'));
    // Paper's builds from nowhere reachable: the read shows latest_build null, never reaching out.
    t = await startTestApp({ env: { GAME_SERVERS_ROOT: root, PAPER_API_URL: 'http://127.0.0.1:9' } });
    alice = await t.signUp();
    bob = await t.signUp();
    carol = await t.signUp();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    rmSync(root, { recursive: true, force: true });
  });

  const order = (token: string, specialization: string) => orderGameServer(t, token, specialization);

  it('makes a server and its directory when a game server is ordered', async () => {
    const paper = await order(alice.token, 'minecraft-paper');
    const fabric = await order(alice.token, 'minecraft-fabric');
    const vanilla = await order(alice.token, 'minecraft-vanilla');
    expect(existsSync(path.join(root, paper, 'plugins'))).toBe(true);
    expect(existsSync(path.join(root, fabric, 'mods'))).toBe(true);
    expect(existsSync(path.join(root, vanilla, 'plugins'))).toBe(false);
    expect(existsSync(path.join(root, vanilla, 'mods'))).toBe(false);
    const one = await t.request('GET', `${S}/${paper}`, { token: alice.token });
    expect(one.status, one.text).toBe(200);
    expect(one.body).toEqual({
      uuid: paper,
      service_id: expect.any(Number),
      name: expect.any(String),
      software: {
        specialization_slug: 'minecraft-paper',
        version_id: '1.21.3',
        build_number: 82,
        latest_build: null,
      },
      game_version: '1.21.3',
      loader: 'paper',
      node: expect.any(String),
      created_at: expect.any(String),
      owner: true,
      permissions: ['software.read', 'software.install'],
    });
    const loaders = (await t.request('GET', S, { token: alice.token })).body.items.map(
      (s: { loader: string }) => s.loader,
    );
    expect(loaders).toEqual(['none', 'fabric', 'paper']);
  });

  it('hides a server from another account (404), lists it to a user added by email with the permissions given', async () => {
    const uuid = await order(alice.token, 'minecraft-paper');
    expect((await t.request('GET', `${S}/${uuid}`, { token: bob.token })).status).toBe(404);
    expect((await t.request('GET', `${S}/${uuid}/users`, { token: bob.token })).status).toBe(404);
    expect((await t.request('GET', S, { token: bob.token })).body).toEqual({ items: [], total: 0 });

    const add = await t.request('POST', `${S}/${uuid}/users`, {
      token: alice.token,
      body: { email: bob.email, permissions: ['software.read'] },
    });
    expect(add.status, add.text).toBe(200);
    expect(add.body).toMatchObject({ email: bob.email, permissions: ['software.read'] });
    const asBob = await t.request('GET', `${S}/${uuid}`, { token: bob.token });
    expect(asBob.body).toMatchObject({ owner: false, permissions: ['software.read'] });
    expect((await t.request('GET', S, { token: bob.token })).body.total).toBe(1);

    // A user does not manage users; an unknown email is a 404; a bad permission a 422.
    const byBob = await t.request('POST', `${S}/${uuid}/users`, {
      token: bob.token,
      body: { email: carol.email, permissions: [] },
    });
    expect([byBob.status, byBob.headers.get('x-error-code')]).toEqual([403, 'game_servers.owner_only']);
    const nobody = await t.request('POST', `${S}/${uuid}/users`, {
      token: alice.token,
      body: { email: 'nobody@example.com', permissions: [] },
    });
    expect(nobody.status).toBe(404);
    const bad = await t.request('POST', `${S}/${uuid}/users`, {
      token: alice.token,
      body: { email: carol.email, permissions: ['root'] },
    });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body.detail)).toContain('permissions');

    const users = await t.request('GET', `${S}/${uuid}/users`, { token: bob.token });
    expect(users.body.items.map((u: { email: string }) => u.email)).toEqual([bob.email]);
    const bobId = add.body.user_id as number;
    expect((await t.request('DELETE', `${S}/${uuid}/users/${bobId}`, { token: bob.token })).status).toBe(403);
    expect((await t.request('DELETE', `${S}/${uuid}/users/${bobId}`, { token: alice.token })).status).toBe(
      204,
    );
    expect((await t.request('GET', `${S}/${uuid}`, { token: bob.token })).status).toBe(404);
    expect((await t.request('DELETE', `${S}/${uuid}/users/${bobId}`, { token: alice.token })).status).toBe(
      404,
    );
  });
});
