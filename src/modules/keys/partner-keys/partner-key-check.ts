import type { FastifyRequest } from 'fastify';
import { bearerToken, type AuthLayer } from '../../../kernel/auth/auth-layer.ts';
import type { Principal } from '../../../kernel/auth/principal.ts';
import type { OrgDirectory } from '../../orgs/index.ts';
import { invalidPartnerKey, orgInactive } from '../keys-errors.ts';
import { keyMatches, lookupOf, PARTNER_KEY_PREFIX } from '../shared/key-material.ts';
import type { PartnerKeysRepository } from './partner-keys-repository.ts';

/**
 * The `partner` requirement (docs/keys-and-limits.md, "Partner keys"): a live partner key as the
 * Bearer token, made for the path's organization (`org_slug`) and partner (`partner`). Anything
 * else — no credential, an access token, an organization or relay key, a revoked key, a key of
 * another organization or partner — is 401 `Invalid partner key`, so a key tells nothing of
 * organizations it was not made for; the key's own organization no longer active is 403. Read
 * from the database on every call: a revocation holds at once.
 */
export class PartnerKeyCheck {
  constructor(
    private readonly keys: PartnerKeysRepository,
    private readonly orgs: OrgDirectory,
  ) {}

  install(auth: AuthLayer): void {
    auth.provide('partner', (request) => this.check(request));
  }

  private async check(request: FastifyRequest): Promise<Principal> {
    const raw = bearerToken(request) ?? '';
    const lookup = lookupOf(raw, PARTNER_KEY_PREFIX);
    const key = lookup === null ? null : await this.keys.byLookup(lookup);
    if (key === null || key.revoked_at !== null || !keyMatches(raw, key.key_hash)) throw invalidPartnerKey();
    const params = (request.params ?? {}) as { org_slug?: unknown; partner?: unknown };
    if (params.partner !== key.partner || typeof params.org_slug !== 'string') throw invalidPartnerKey();
    const org = await this.orgs.bySlug(params.org_slug);
    if (org === null || org.id !== key.org_id) throw invalidPartnerKey();
    if (org.status !== 'active') throw orgInactive();
    return { realm: 'main', credential: 'partner_key', orgId: org.id, keyId: key.id, partner: key.partner };
  }
}
