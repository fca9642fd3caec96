import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import { newKey, RELAY_KEY_PREFIX } from '../../keys/index.ts';
import type { MailContext } from '../mail-context.ts';
import { relayKeyNotFound } from '../mail-errors.ts';
import type { RelayAccess } from '../relays/relay-access.ts';
import { relayKeyView, type RelayKeyView } from './relay-key-view.ts';
import type { RelayKeysRepository } from './relay-keys-repository.ts';

/** Relay keys of a relay (base /client/smtp-relay/{service_id}/keys). */
export class RelayKeysService {
  constructor(
    private readonly ctx: MailContext,
    private readonly access: RelayAccess,
    private readonly repo: RelayKeysRepository,
  ) {}

  async list(owner: OwnerScope, serviceId: number): Promise<RelayKeyView[]> {
    await this.access.relayFor(owner, serviceId, 'read');
    return (await this.repo.list(serviceId)).map(relayKeyView);
  }

  async create(
    owner: OwnerScope,
    serviceId: number,
    label: string,
  ): Promise<RelayKeyView & { raw_key: string }> {
    await this.access.relayFor(owner, serviceId, 'write');
    const key = newKey(RELAY_KEY_PREFIX);
    const row = await this.repo.insert({
      service_id: serviceId,
      label,
      lookup: key.lookup,
      key_hash: key.hash,
      created_at: new Date(this.ctx.clock.now()),
    });
    return { ...relayKeyView(row), raw_key: key.raw };
  }

  async delete(owner: OwnerScope, serviceId: number, keyId: number): Promise<void> {
    await this.access.relayFor(owner, serviceId, 'write');
    if (!(await this.repo.delete(serviceId, keyId))) throw relayKeyNotFound();
  }
}
