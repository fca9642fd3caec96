import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import type {
  CommercePublishableKeyRow,
  CommerceSalesChannelRow,
  CommerceStoreSettingsRow,
} from '../commerce-tables.ts';

const iso = (d: Date): string => new Date(d).toISOString();

export type StoreSettingsView = JsonView<Omit<CommerceStoreSettingsRow, 'org_id'>>;
export type SalesChannelView = JsonView<Omit<CommerceSalesChannelRow, 'org_id'>>;
/** A publishable key: its first characters only (`key_prefix`), never the key or its hash. */
export type PublishableKeyView = JsonView<
  Omit<CommercePublishableKeyRow, 'org_id' | 'lookup' | 'key_hash'>
> & {
  key_prefix: string;
};
/** The creation answer: the key in full, this once. */
export type NewPublishableKeyView = JsonView<
  Omit<CommercePublishableKeyRow, 'org_id' | 'lookup' | 'key_hash'>
> & {
  key_prefix: string;
  key: string;
};

export function storeSettingsView(r: CommerceStoreSettingsRow): StoreSettingsView {
  return {
    name: r.name,
    default_currency_code: r.default_currency_code,
    support_email: r.support_email,
    seller_of_record: r.seller_of_record,
    updated_at: iso(r.updated_at),
  };
}

export function salesChannelView(r: CommerceSalesChannelRow): SalesChannelView {
  return {
    id: Number(r.id),
    name: r.name,
    description: r.description,
    is_disabled: r.is_disabled,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

export function publishableKeyView(r: CommercePublishableKeyRow): PublishableKeyView {
  return {
    id: Number(r.id),
    sales_channel_id: Number(r.sales_channel_id),
    mode: r.mode,
    label: r.label,
    key_prefix: r.lookup,
    revoked_at: r.revoked_at === null ? null : iso(r.revoked_at),
    created_at: iso(r.created_at),
  };
}
