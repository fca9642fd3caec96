import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventBus } from '../../kernel/events/domain-events.ts';
import { MemoryBus } from '../../kernel/events/memory-bus.ts';
import { createLogger } from '../../kernel/log/logger.ts';
import type { GameproxyPublishing, PublishedGameRoute } from '../../modules/gameproxy/index.ts';
import { EdgeRouteSync } from './edge-route-sync.ts';
import { routeTableOf } from './edge-routes.ts';
import { EdgeSnapshotFile } from './edge-snapshot-file.ts';

const log = createLogger('silent');
const EVENT = 'gameproxy.routes-changed';

function route(id: number, name: string): PublishedGameRoute {
  return {
    id,
    mode: 'proxy',
    upstreamHost: '127.0.0.1',
    upstreamPort: 25566,
    proxyProtocol: false,
    realIp: false,
    onlineMotd: null,
    offlineMotd: null,
    versionName: null,
    favicon: null,
    statusCacheTtlSeconds: 10,
    exact: [name],
    wildcard: [name],
  };
}

/** Routes read from `read` (a database stand-in the test steers), events over an in-process bus. */
function source(bus: MemoryBus, read: () => Promise<PublishedGameRoute[]>) {
  let calls = 0;
  const events = eventBus(bus);
  const publishing: GameproxyPublishing = {
    routes: () => {
      calls++;
      return read();
    },
    onRoutesChanged: (handler) =>
      events.subscribe({ name: EVENT, parse: (m) => m as { routeIds: number[] } }, (e) =>
        handler(e.routeIds),
      ),
  };
  return { publishing, calls: () => calls };
}

const names = (routes: readonly PublishedGameRoute[]) => routes.map((r) => r.exact[0]);
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('edge route sync', () => {
  it('reloads once for a burst of events, and keeps the routes held when a reload fails', async () => {
    const bus = new MemoryBus();
    let rows = [route(1, 'a.play.localhost')];
    let failing = false;
    const src = source(bus, async () => {
      if (failing) throw new Error('database down');
      return rows;
    });
    let served: readonly PublishedGameRoute[] = [];
    const sync = new EdgeRouteSync(src.publishing, (r) => (served = r), log, { debounceMs: 20 });
    expect(await sync.start()).toBe('database');
    expect(names(served)).toEqual(['a.play.localhost']);

    rows = [route(1, 'a.play.localhost'), route(2, 'b.play.localhost')];
    for (let i = 0; i < 5; i++) await bus.publish(EVENT, { routeIds: [2] });
    await new Promise((r) => setTimeout(r, 100));
    expect(src.calls()).toBe(2);
    expect(names(served)).toEqual(['a.play.localhost', 'b.play.localhost']);

    failing = true;
    expect(await sync.reload()).toBe(false);
    expect(sync.degraded).toBe(true);
    expect(names(served)).toEqual(['a.play.localhost', 'b.play.localhost']);
    failing = false;
    rows = [route(2, 'b.play.localhost')];
    expect(await sync.reload()).toBe(true);
    expect(sync.degraded).toBe(false);
    expect(names(served)).toEqual(['b.play.localhost']);
    await sync.stop();
  });

  it('routes from the snapshot file while the database is late, then takes its late answer', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'edge-sync-'));
    dirs.push(dir);
    const file = EdgeSnapshotFile.inDir(dir);
    file.replaceAll([route(7, 'saved.play.localhost')]);
    await file.flush();

    const bus = new MemoryBus();
    let answer!: (routes: PublishedGameRoute[]) => void;
    const late = new Promise<PublishedGameRoute[]>((r) => (answer = r));
    const src = source(bus, () => late);
    let served: readonly PublishedGameRoute[] = [];
    const sync = new EdgeRouteSync(src.publishing, (r) => (served = r), log, {
      startWaitMs: 50,
      mirror: file,
      fallback: () => file.read(),
    });
    expect(await sync.start()).toBe('fallback');
    expect(sync.degraded).toBe(true);
    expect(routeTableOf(served).find('mc.saved.play.localhost')?.id).toBe(7);

    answer([route(8, 'fresh.play.localhost')]);
    await new Promise((r) => setTimeout(r, 10));
    expect(src.calls()).toBe(1); // the start's own read, answered late
    expect(sync.degraded).toBe(false);
    expect(names(served)).toEqual(['fresh.play.localhost']);
    await sync.stop();
    await file.flush();
    expect(names((await file.read())!)).toEqual(['fresh.play.localhost']);
  });

  it('starts with no routes when neither the database nor a snapshot file has any', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'edge-sync-'));
    dirs.push(dir);
    const file = EdgeSnapshotFile.inDir(dir);
    writeFileSync(file.file, '{"format":1,"routes":"not a list"}');
    expect(await file.read()).toBeNull();
    const src = source(new MemoryBus(), () => Promise.reject(new Error('database down')));
    let served: readonly PublishedGameRoute[] | null = null;
    const sync = new EdgeRouteSync(src.publishing, (r) => (served = r), log, { fallback: () => file.read() });
    expect(await sync.start()).toBe('none');
    expect(served).toEqual([]);
    expect(sync.degraded).toBe(true);
    await sync.stop();
  });
});
