import type { Clock } from '../clock.ts';
import type { Bus } from './bus.ts';
import { MemoryBus } from './memory-bus.ts';
import { RedisBus } from './redis-bus.ts';

export function openBus(redisUrl: string | null, clock: Clock, prefix = ''): Bus {
  return redisUrl === null ? new MemoryBus(clock) : new RedisBus(redisUrl, prefix);
}
