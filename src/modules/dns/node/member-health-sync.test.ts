import { describe, expect, it } from 'vitest';
import { MemberHealthTable } from '../../../dns/index.ts';
import type { MemberHealth } from '../../../dns/index.ts';
import { MemoryBus } from '../../../kernel/bus/memory-bus.ts';
import { eventBus } from '../../../kernel/events/domain-events.ts';
import { memberHealthChanged } from '../dns-events.ts';
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
});
