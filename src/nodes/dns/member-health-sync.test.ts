import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemberHealthTable } from '../../dns/index.ts';
import type { MemberHealth } from '../../dns/index.ts';
import { MemoryBus } from '../../kernel/events/memory-bus.ts';
import { eventBus } from '../../kernel/events/domain-events.ts';
import type { MemberHealthEvent } from '../../health/member-health-channel.ts';
import { memberHealthChanged } from '../../modules/load-balancing/index.ts';
import { HealthSnapshotFile } from './health-snapshot-file.ts';
import { MemberHealthSync } from './member-health-sync.ts';

describe('member health sync', () => {
  it('seeds from storage, then applies events; events during the seed win over it', async () => {
    const bus = new MemoryBus();
    const table = new MemberHealthTable();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const sync = new MemberHealthSync(
      table,
      async () => {
        await gate;
        return new Map<number, MemberHealth>([
          [1, 'healthy'],
          [2, 'healthy'],
        ]);
      },
      (handler) => eventBus(bus).subscribe(memberHealthChanged, handler),
    );
    const started = sync.start();
    await new Promise((r) => setImmediate(r));
    // Published after the (slow) read began: newer than what it will return.
    await bus.publish(memberHealthChanged.name, { memberId: 2, zoneId: 9, status: 'unhealthy' });
    await new Promise((r) => setImmediate(r));
    release();
    await started;
    expect(table.statusOf(1)).toBe('healthy');
    expect(table.statusOf(2)).toBe('unhealthy');

    await bus.publish(memberHealthChanged.name, { memberId: 1, zoneId: 9, status: 'unhealthy' });
    await bus.publish(memberHealthChanged.name, { memberId: 1, zoneId: 9, status: 'bogus' });
    await new Promise((r) => setImmediate(r));
    expect(table.statusOf(1)).toBe('unhealthy');

    await sync.stop();
    await bus.publish(memberHealthChanged.name, { memberId: 1, zoneId: 9, status: 'healthy' });
    await new Promise((r) => setImmediate(r));
    expect(table.statusOf(1)).toBe('unhealthy');
  });

  it('serves the fallback when the database does not answer within the start wait, then takes the late read', async () => {
    const bus = new MemoryBus();
    const table = new MemberHealthTable();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const sync = new MemberHealthSync(
      table,
      async () => {
        await gate; // a database that does not answer (yet)
        return new Map<number, MemberHealth>([
          [1, 'unhealthy'],
          [2, 'healthy'],
        ]);
      },
      (handler) => eventBus(bus).subscribe(memberHealthChanged, handler),
      {
        fallback: async () =>
          new Map<number, MemberHealth>([
            [1, 'healthy'],
            [2, 'healthy'],
          ]),
        startWaitMs: 20,
      },
    );
    // Started without the database: the last known health serves.
    expect(await sync.start()).toBe('fallback');
    expect(table.statusOf(1)).toBe('healthy');
    // An event after the start is newer than the late read; the rest comes from the read.
    await bus.publish(memberHealthChanged.name, { memberId: 2, zoneId: 9, status: 'unhealthy' });
    await new Promise((r) => setImmediate(r));
    release();
    await new Promise((r) => setImmediate(r));
    expect(table.statusOf(1)).toBe('unhealthy');
    expect(table.statusOf(2)).toBe('unhealthy');
    await sync.stop();
  });

  it('keeps the last-known health on disk and serves it when the database cannot be read', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'health-file-'));
    try {
      const bus = new MemoryBus();
      const subscribe = (handler: (event: MemberHealthEvent) => void) =>
        eventBus(bus).subscribe(memberHealthChanged, handler);
      const file = HealthSnapshotFile.inDir(dir, { debounceMs: 5 });
      const first = new MemberHealthSync(
        new MemberHealthTable(),
        async () =>
          new Map<number, MemberHealth>([
            [1, 'healthy'],
            [2, 'unhealthy'],
            [3, 'unknown'],
          ]),
        subscribe,
        { mirror: file },
      );
      expect(await first.start()).toBe('database');
      await bus.publish(memberHealthChanged.name, { memberId: 1, zoneId: 9, status: 'unhealthy' });
      await new Promise((r) => setImmediate(r));
      await file.flush();
      await first.stop();
      const stored = JSON.parse(readFileSync(file.file, 'utf8'));
      expect(stored.members).toEqual({ 1: 'unhealthy', 2: 'unhealthy' });

      // A restart with the database down: the file's statuses, not `unknown`.
      const table = new MemberHealthTable();
      const again = new MemberHealthSync(
        table,
        async () => {
          throw new Error('connect ECONNREFUSED');
        },
        subscribe,
        { fallback: () => HealthSnapshotFile.inDir(dir).read() },
      );
      expect(await again.start()).toBe('fallback');
      expect([table.statusOf(1), table.statusOf(2), table.statusOf(3)]).toEqual([
        'unhealthy',
        'unhealthy',
        'unknown',
      ]);
      await again.stop();

      // Neither database nor file: the database's error.
      const none = new MemberHealthSync(
        new MemberHealthTable(),
        async () => Promise.reject(new Error('down')),
        subscribe,
        {
          fallback: () => HealthSnapshotFile.inDir(path.join(dir, 'empty')).read(),
        },
      );
      await expect(none.start()).rejects.toThrow('down');
      await none.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
