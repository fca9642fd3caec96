import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import { newKey, RELAY_KEY_PREFIX } from '../../keys/index.ts';
import type { MailContext } from '../mail-context.ts';
import { relayKeyNotFound } from '../mail-errors.ts';
import type { RelayKeyRow } from '../mail-tables.ts';
import type { RelayAccess } from '../relays/relay-access.ts';
import { RelayKeysRepository } from './relay-keys-repository.ts';

export interface RelayKeyView {
  readonly id: number;
  readonly label: string;
  /** The key's first characters, to tell keys apart (the key itself is shown once). */
  readonly key_prefix: string;
  readonly created_at: string;
  readonly last_used_at: string | null;
}

function view(row: RelayKeyRow): RelayKeyView {
  return {
    id: Number(row.id),
    label: row.label,
    key_prefix: row.lookup,
    created_at: new Date(row.created_at).toISOString(),
    last_used_at: row.last_used_at === null ? null : new Date(row.last_used_at).toISOString(),
  };
}

/** Relay keys of a relay (base /client/smtp-relay/{service_id}/keys). */
export class RelayKeysService {
  readonly repo: RelayKeysRepository;

  constructor(
    private readonly ctx: MailContext,
    private readonly access: RelayAccess,
  ) {
    this.repo = new RelayKeysRepository(ctx.db);
  }

  async list(owner: OwnerScope, serviceId: number): Promise<RelayKeyView[]> {
    await this.access.relayFor(owner, serviceId, 'read');
    return (await this.repo.list(serviceId)).map(view);
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
    return { ...view(row), raw_key: key.raw };
  }

  async delete(owner: OwnerScope, serviceId: number, keyId: number): Promise<void> {
    await this.access.relayFor(owner, serviceId, 'write');
    if (!(await this.repo.delete(serviceId, keyId))) throw relayKeyNotFound();
  }
}
