import type { Access, OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import type { ServiceDirectory } from '../../services/index.ts';
import { relayNotFound } from '../mail-errors.ts';
import type { RelayRow } from '../mail-tables.ts';
import type { RelaysRepository } from './relays-repository.ts';

/** The catalogue `module_name` of relay products (catalog/products.json). */
export const SMTP_RELAY = 'smtp_relay';

/**
 * The relay behind `/client/smtp-relay/{service_id}/...`: the caller must hold the service (read:
 * any member of its organization; write: its owner, an owner or admin), and it must be a relay.
 * Anything else — another tenant's service, another product — is 404, as if it did not exist.
 */
export class RelayAccess {
  constructor(
    private readonly services: ServiceDirectory,
    private readonly relays: RelaysRepository,
  ) {}

  async relayFor(owner: OwnerScope, serviceId: number, access: Access): Promise<RelayRow> {
    const summary = await this.services.summaryFor(owner, serviceId, access);
    if (summary === null || summary.module !== SMTP_RELAY) throw relayNotFound();
    const relay = await this.relays.find(serviceId);
    if (relay === null) throw relayNotFound();
    return relay;
  }
}
