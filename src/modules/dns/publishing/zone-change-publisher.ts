import type { Bus } from '../../../kernel/bus/bus.ts';
import type { Logger } from '../../../kernel/log/logger.ts';
import { ZONE_CHANGED_CHANNEL } from '../../../dns/index.ts';
import type { ZoneChangedEvent } from '../../../dns/index.ts';

/**
 * Tells every DNS node that a zone changed, after the change is committed. A lost event (bus
 * down) is not fatal: DNS nodes also resynchronise zones whose serial moved.
 */
export class ZoneChangePublisher {
  constructor(
    private readonly bus: Bus,
    private readonly log: Logger,
  ) {}

  /** Sends `event` stamped with the time of sending (DNS nodes measure bus lag from it). */
  async publish(event: Omit<ZoneChangedEvent, 'publishedAtMs'>): Promise<void> {
    try {
      await this.bus.publish(ZONE_CHANGED_CHANNEL, { ...event, publishedAtMs: Date.now() });
    } catch (error) {
      this.log.warn({ err: error, zoneId: event.zoneId }, 'zone change not published');
    }
  }
}
