import type { Clock } from '../../../kernel/clock.ts';
import type { Sealer } from '../../../kernel/crypto/sealing.ts';
import { unsubscribeNotFound } from '../mail-errors.ts';
import type { RelaysRepository } from '../relays/relays-repository.ts';
import type { SuppressionsRepository } from '../suppressions/suppressions-repository.ts';
import { openUnsubscribeToken } from './unsubscribe-token.ts';

/**
 * One-click unsubscribe: the token names the relay and the addressee, who goes on the relay's
 * suppression list (repeating is harmless). A forged token, or one of a relay that is gone, is 404.
 */
export class UnsubscribeService {
  constructor(
    private readonly sealer: Sealer,
    private readonly clock: Clock,
    private readonly relays: RelaysRepository,
    private readonly suppressions: SuppressionsRepository,
  ) {}

  async unsubscribe(token: string): Promise<void> {
    const opened = openUnsubscribeToken(this.sealer, token);
    if (opened === null || (await this.relays.find(opened.serviceId)) === null) throw unsubscribeNotFound();
    const at = new Date(this.clock.now());
    await this.suppressions.add(opened.serviceId, opened.address, 'unsubscribed', null, at);
  }
}
