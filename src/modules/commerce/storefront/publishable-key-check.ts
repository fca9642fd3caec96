import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { AuthLayer } from '../../../kernel/auth/auth-layer.ts';
import type { Principal } from '../../../kernel/auth/principal.ts';
import type { OrgDirectory } from '../../orgs/index.ts';
import type { CommerceContext } from '../commerce-context.ts';
import type { CommercePublishableKeyRow } from '../commerce-tables.ts';
import { StoreRepository } from '../store/store-repository.ts';
import { LOOKUP_CHARS } from '../store/store-service.ts';
import {
  invalidPublishableKey,
  missingPublishableKey,
  storeCommerceDisabled,
  storeOrgNotFound,
} from './storefront-errors.ts';
import { publishableKeyRevoked } from '../store/store-events.ts';

/** How long a key read from the database is believed (a revocation elsewhere is heard at once). */
const KEY_CACHE_MS = 10_000;
const KEY_CACHE_MAX = 10_000;
const KEY_RE = /^pk_(test|live)_[A-Za-z0-9_-]{40}$/;

interface CachedKey {
  readonly row: CommercePublishableKeyRow | null;
  readonly untilMs: number;
}

/**
 * The Store API's door (`publishable` requirement): the shop's publishable key in
 * `x-publishable-api-key`, as Medusa's storefronts send it. No key → 401; an unknown or revoked
 * key → 401; a key of another organization than the path's, an organization that is not active or
 * has Commerce off → 404 (the store does not exist for this caller). The principal carries the
 * key's sales channel and mode: what the shopper sees, and where carts and orders are made.
 */
export class PublishableKeyCheck {
  private readonly keys: StoreRepository;
  private readonly cache = new Map<string, CachedKey>();

  constructor(
    private readonly ctx: CommerceContext,
    private readonly orgs: OrgDirectory,
  ) {
    this.keys = new StoreRepository(ctx.db);
  }

  install(auth: AuthLayer): void {
    auth.provide('publishable', (request) => this.check(request));
  }

  /** Hears revocations from every process, so the key is refused at once there too. */
  async listen(): Promise<() => Promise<void>> {
    return this.ctx.events.subscribe(publishableKeyRevoked, (e) => this.cache.delete(e.lookup));
  }

  private async check(request: FastifyRequest): Promise<Principal> {
    const header = request.headers['x-publishable-api-key'];
    const presented = (Array.isArray(header) ? header[0] : header)?.trim();
    if (presented === undefined || presented === '') throw missingPublishableKey();
    const row = await this.find(presented);
    if (row === null || row.revoked_at !== null) throw invalidPublishableKey();
    const slug = (request.params as { org_slug?: unknown } | undefined)?.org_slug;
    const org = typeof slug === 'string' ? await this.orgs.bySlug(slug) : null;
    if (org === null || org.id !== Number(row.org_id) || org.status !== 'active') throw storeOrgNotFound();
    if (!org.commerceEnabled) throw storeCommerceDisabled();
    return {
      realm: 'storefront',
      credential: 'publishable_key',
      orgId: org.id,
      keyId: Number(row.id),
      salesChannelId: Number(row.sales_channel_id),
      keyMode: row.mode,
    };
  }

  private async find(raw: string): Promise<CommercePublishableKeyRow | null> {
    const mode = KEY_RE.exec(raw)?.[1];
    if (mode === undefined) return null;
    const lookup = raw.slice(0, `pk_${mode}_`.length + LOOKUP_CHARS);
    const now = this.ctx.clock.now();
    let entry = this.cache.get(lookup);
    if (entry === undefined || entry.untilMs <= now) {
      entry = { row: await this.keys.keyByLookup(lookup), untilMs: now + KEY_CACHE_MS };
      this.cache.delete(lookup);
      this.cache.set(lookup, entry);
      if (this.cache.size > KEY_CACHE_MAX) this.cache.delete(this.cache.keys().next().value!);
    }
    if (entry.row === null) return null;
    const hash = createHash('sha256').update(raw).digest();
    return timingSafeEqual(hash, Buffer.from(entry.row.key_hash, 'hex')) ? entry.row : null;
  }
}
