import type { FastifyRequest } from 'fastify';
import type { AuthLayer, AuthRequirement } from '../../../kernel/auth/auth-layer.ts';
import type { Principal } from '../../../kernel/auth/principal.ts';
import { forbiddenRole } from '../../../kernel/errors/kernel-errors.ts';
import { grants } from '../../commerce/index.ts';
import type { OrgDirectory } from '../../orgs/index.ts';
import { IpAllowList } from '../shared/ip-allow-list.ts';
import { keyMatches, lookupOf, ORG_KEY_PREFIX } from '../shared/key-material.ts';
import type { KeysContext } from '../keys-context.ts';
import {
  addressNotAllowed,
  commerceDisabled,
  invalidApiKey,
  keyRateLimited,
  missingApiKey,
  orgInactive,
  orgNotFoundForKey,
  peopleOnly,
  scopeRequired,
} from '../keys-errors.ts';
import type { OrgKeyRow } from '../keys-tables.ts';
import { OrgKeysRepository } from '../org-keys/org-keys-repository.ts';
import { orgKeyRevoked } from '../keys-events.ts';

/** How long a key read from the database is believed (a revocation takes effect within 10 s). */
export const KEY_CACHE_MS = 10_000;
const KEY_CACHE_MAX = 10_000;
const HOUR_MS = 3_600_000;

/**
 * A Commerce API route's requirement (docs/keys-and-limits.md, "The Commerce API"): its scope, or a
 * merchant-profile route no key may call.
 */
export type CommerceRequirement = { readonly scope: string; readonly peopleOnly?: boolean };

interface CachedKey {
  readonly row: OrgKeyRow | null;
  readonly allow: IpAllowList | null;
  readonly untilMs: number;
}

/**
 * The Commerce gate: decides the `{scope}` requirement of the kernel's authentication layer for
 * /orgs/{org_slug}/commerce/... Checks in this order, each failure its own answer: no key
 * and no member token (401 Missing API key), unknown or revoked key (401), another organization's
 * slug (404), organization not active (403), address outside the allow-list (403), Commerce off
 * (404), over the hourly limit (429), then the route's scope (403 scope_required) — and a
 * merchant-profile route refuses every key (403 people_only). An owner's or admin's main-site
 * token passes without scopes. A key sent as a Bearer token is not read.
 */
export class CommerceGate {
  private readonly keys: OrgKeysRepository;
  private readonly cache = new Map<string, CachedKey>();

  constructor(
    private readonly ctx: KeysContext,
    private readonly orgs: OrgDirectory,
  ) {
    this.keys = new OrgKeysRepository(ctx.db);
  }

  /** Hears revocations from every process, so the key is refused at once here too. */
  async listen(): Promise<() => Promise<void>> {
    return this.ctx.events.subscribe(orgKeyRevoked, (e) => this.cache.delete(e.lookup));
  }

  install(auth: AuthLayer): void {
    auth.provide('scope', (request, requirement) => this.check(auth, request, requirement));
  }

  private async check(
    auth: AuthLayer,
    request: FastifyRequest,
    requirement: AuthRequirement,
  ): Promise<Principal> {
    const needed = requirement as CommerceRequirement;
    const slug = (request.params as { org_slug?: unknown } | undefined)?.org_slug;
    const header = request.headers['x-api-key'];
    const presented = (Array.isArray(header) ? header[0] : header)?.trim();
    if (presented === undefined || presented === '') return this.member(auth, request, String(slug ?? ''));

    const key = await this.find(presented);
    if (key === null || key.row === null || !key.row.is_active) throw invalidApiKey();
    const row = key.row;
    const org = typeof slug === 'string' ? await this.orgs.bySlug(slug) : null;
    if (org === null || org.id !== Number(row.org_id)) throw orgNotFoundForKey();
    if (org.status !== 'active') throw orgInactive();
    if (!key.allow!.allows(request.ip)) throw addressNotAllowed();
    if (!org.commerceEnabled) throw commerceDisabled();
    const hit = await this.ctx.bus.slidingWindowHit(
      `rl:orgkey:${row.id}`,
      this.ctx.clock.now(),
      HOUR_MS,
      Number(row.rate_limit_per_hour),
    );
    if (!hit.allowed) throw keyRateLimited();
    if (needed.peopleOnly === true) throw peopleOnly();
    if (!grants(row.scopes, needed.scope)) throw scopeRequired(needed.scope);
    return { realm: 'main', credential: 'org_key', orgId: org.id, keyId: Number(row.id), scopes: row.scopes };
  }

  /** No key: an owner's or admin's main-site token passes, without scopes. */
  private async member(auth: AuthLayer, request: FastifyRequest, slug: string): Promise<Principal> {
    const claims = await auth.tokenClaims(request, 'main');
    if (claims === null) throw missingApiKey();
    const org = await this.orgs.bySlug(slug);
    const role =
      org === null || org.status === 'deleted' ? null : await this.orgs.roleOf(org.id, claims.userId);
    if (org === null || role === null) throw orgNotFoundForKey();
    if (role === 'member') throw forbiddenRole();
    if (org.status !== 'active') throw orgInactive();
    if (!org.commerceEnabled) throw commerceDisabled();
    return {
      realm: 'main',
      credential: 'access_token',
      userId: claims.userId,
      orgId: org.id,
      role,
      ...(claims.sessionId !== undefined ? { sessionId: claims.sessionId } : {}),
    };
  }

  /** The key presented, from memory (at most KEY_CACHE_MS old) or the database. */
  private async find(raw: string): Promise<CachedKey | null> {
    const lookup = lookupOf(raw, ORG_KEY_PREFIX);
    if (lookup === null) return null;
    const now = this.ctx.clock.now();
    let entry = this.cache.get(lookup);
    if (entry === undefined || entry.untilMs <= now) {
      const row = await this.keys.byLookup(lookup);
      entry = {
        row,
        allow: row === null ? null : new IpAllowList(row.ip_whitelist),
        untilMs: now + KEY_CACHE_MS,
      };
      this.cache.delete(lookup);
      this.cache.set(lookup, entry);
      if (this.cache.size > KEY_CACHE_MAX) this.cache.delete(this.cache.keys().next().value!);
    }
    if (entry.row === null || !keyMatches(raw, entry.row.key_hash)) return null;
    return entry;
  }
}
