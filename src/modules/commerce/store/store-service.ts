import { createHash, randomBytes } from 'node:crypto';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { CommerceContext } from '../commerce-context.ts';
import { publishableKeyNotFound, salesChannelNotFound, stillInUse } from '../commerce-errors.ts';
import type { CommerceStoreSettingsRow } from '../commerce-tables.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import { currencyCodeOf } from '../money/money-amounts.ts';
import { publishableKeyRevoked } from './store-events.ts';
import { StoreRepository } from './store-repository.ts';
import {
  publishableKeyView,
  salesChannelView,
  storeSettingsView,
  type NewPublishableKeyView,
  type PublishableKeyView,
  type SalesChannelView,
  type StoreSettingsView,
} from './store-view.ts';

/** Characters of a publishable key after `pk_test_`/`pk_live_` that index its row (not secret). */
export const LOOKUP_CHARS = 12;

export interface StoreSettingsInput {
  name?: string | null;
  default_currency_code?: string;
  support_email?: string | null;
  seller_of_record?: 'organization' | 'platform';
}
export interface SalesChannelInput {
  name: string;
  description?: string | null;
  is_disabled?: boolean;
}

/** Store settings, sales channels and their publishable keys. */
export class StoreService {
  private readonly repo: StoreRepository;

  constructor(
    private readonly ctx: CommerceContext,
    private readonly log: ShopEventLog,
    private readonly random: (bytes: number) => Buffer = randomBytes,
  ) {
    this.repo = new StoreRepository(ctx.db);
  }

  private now(): Date {
    return new Date(this.ctx.clock.now());
  }

  private defaults(orgId: number): CommerceStoreSettingsRow {
    return {
      org_id: orgId,
      name: null,
      default_currency_code: 'EUR',
      support_email: null,
      seller_of_record: 'organization',
      updated_at: this.now(),
    };
  }

  async settings(orgId: number): Promise<StoreSettingsView> {
    return storeSettingsView((await this.repo.settings(orgId)) ?? this.defaults(orgId));
  }

  async updateSettings(orgId: number, input: StoreSettingsInput): Promise<StoreSettingsView> {
    const currency =
      input.default_currency_code === undefined
        ? undefined
        : currencyCodeOf(input.default_currency_code, ['body', 'default_currency_code']);
    return this.log.change(orgId, async ({ trx }) => {
      const repo = this.repo.withTx(trx);
      const current = (await repo.settings(orgId)) ?? this.defaults(orgId);
      const saved = await repo.saveSettings({
        ...current,
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(currency !== undefined ? { default_currency_code: currency } : {}),
        ...(input.support_email !== undefined ? { support_email: input.support_email } : {}),
        ...(input.seller_of_record !== undefined ? { seller_of_record: input.seller_of_record } : {}),
        updated_at: this.now(),
      });
      return { result: storeSettingsView(saved), events: [['commerce.store.updated', {}]] };
    });
  }

  async channels(orgId: number): Promise<SalesChannelView[]> {
    return (await this.repo.channels(orgId)).map(salesChannelView);
  }

  async channel(orgId: number, id: number): Promise<SalesChannelView> {
    const row = await this.repo.channel(orgId, id);
    if (row === null) throw salesChannelNotFound();
    return salesChannelView(row);
  }

  async createChannel(orgId: number, input: SalesChannelInput): Promise<SalesChannelView> {
    return this.log.change(orgId, async ({ trx }) => {
      const row = await this.repo.withTx(trx).insertChannel(
        {
          org_id: orgId,
          name: input.name,
          description: input.description ?? null,
          is_disabled: input.is_disabled ?? false,
        },
        this.now(),
      );
      return {
        result: salesChannelView(row),
        events: [['commerce.sales_channel.created', { id: Number(row.id) }]],
      };
    });
  }

  async updateChannel(
    orgId: number,
    id: number,
    input: Partial<SalesChannelInput>,
  ): Promise<SalesChannelView> {
    return this.log.change(orgId, async ({ trx }) => {
      const row = await this.repo.withTx(trx).updateChannel(orgId, id, input, this.now());
      if (row === null) throw salesChannelNotFound();
      return { result: salesChannelView(row), events: [['commerce.sales_channel.updated', { id }]] };
    });
  }

  /** Deletes a sales channel that no publishable key names (revoked keys included: they keep their channel). */
  async deleteChannel(orgId: number, id: number): Promise<{ id: number; deleted: boolean }> {
    return this.log.change(orgId, async ({ trx }) => {
      const repo = this.repo.withTx(trx);
      if ((await repo.channel(orgId, id)) === null) throw salesChannelNotFound();
      if ((await repo.keysOfChannel(id)) > 0) throw stillInUse('sales channel', 'publishable keys');
      await repo.deleteChannel(orgId, id);
      return { result: { id, deleted: true }, events: [['commerce.sales_channel.deleted', { id }]] };
    });
  }

  async keys(orgId: number): Promise<PublishableKeyView[]> {
    return (await this.repo.keys(orgId)).map(publishableKeyView);
  }

  /**
   * A new publishable key `pk_<mode>_` + 40 base64url characters (240 random bits), bound to one
   * sales channel: stored as its lookup (first characters) and SHA-256, shown in full once.
   */
  async createKey(
    orgId: number,
    input: { sales_channel_id: number; mode: 'test' | 'live'; label?: string },
  ): Promise<NewPublishableKeyView> {
    return this.log.change(orgId, async ({ trx }) => {
      const repo = this.repo.withTx(trx);
      if ((await repo.channel(orgId, input.sales_channel_id)) === null)
        throw invalidField(['body', 'sales_channel_id'], 'Unknown sales channel', input.sales_channel_id);
      const prefix = `pk_${input.mode}_`;
      const raw = `${prefix}${this.random(30).toString('base64url')}`;
      const row = await repo.insertKey({
        org_id: orgId,
        sales_channel_id: input.sales_channel_id,
        mode: input.mode,
        label: input.label ?? null,
        lookup: raw.slice(0, prefix.length + LOOKUP_CHARS),
        key_hash: createHash('sha256').update(raw).digest('hex'),
        created_at: this.now(),
      });
      return {
        result: { ...publishableKeyView(row), key: raw },
        events: [
          [
            'commerce.publishable_key.created',
            { id: Number(row.id), sales_channel_id: input.sales_channel_id, mode: input.mode },
          ],
        ],
      };
    });
  }

  async revokeKey(orgId: number, id: number): Promise<PublishableKeyView> {
    const revoked = await this.log.change(orgId, async ({ trx }) => {
      const row = await this.repo.withTx(trx).revokeKey(orgId, id, this.now());
      if (row === null) throw publishableKeyNotFound();
      return { result: publishableKeyView(row), events: [['commerce.publishable_key.revoked', { id }]] };
    });
    // Every process's Store API door forgets the key at once (publishable-key-check.ts).
    await this.ctx.events
      .publish(publishableKeyRevoked, { lookup: revoked.key_prefix })
      .catch(() => undefined);
    return revoked;
  }
}
