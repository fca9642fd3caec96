import type { AuditTables } from '../../../kernel/audit/audit-log.ts';
import { joinTransaction } from '../../../kernel/db/unit-of-work.ts';
import type { Runtime } from '../../../kernel/runtime/runtime.ts';
import { orgWithOwner } from '../../orgs/index.ts';
import { keysContext } from '../keys-context.ts';
import { orgNotFoundForKey, partnerKeyNotFound } from '../keys-errors.ts';
import { newKey, PARTNER_KEY_PREFIX } from '../shared/key-material.ts';
import { PartnerKeysRepository } from './partner-keys-repository.ts';

/** A partner's slug: what its routes' `{partner}` path segment reads. */
export const PARTNER_SLUG = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** An issued key: shown once (`raw`), never stored. */
export interface IssuedPartnerKey {
  readonly id: number;
  readonly orgId: number;
  readonly partner: string;
  readonly raw: string;
}

async function orgIdOf(runtime: Runtime, slug: string): Promise<number> {
  const org = await orgWithOwner(runtime, slug);
  if (org === null || org.status === 'deleted') throw orgNotFoundForKey();
  return org.id;
}

function checkPartner(partner: string): void {
  if (!PARTNER_SLUG.test(partner)) throw new Error(`partner "${partner}": a-z, 0-9 and -, at most 63`);
}

/** Platform staff (`npm run org -- partner-key <org_slug> <partner>`): a new partner key. */
export async function issuePartnerKey(
  runtime: Runtime,
  orgSlug: string,
  partner: string,
): Promise<IssuedPartnerKey> {
  checkPartner(partner);
  const orgId = await orgIdOf(runtime, orgSlug);
  const ctx = keysContext(runtime);
  const key = newKey(PARTNER_KEY_PREFIX);
  const now = new Date(ctx.clock.now());
  return ctx.transaction(async (uow) => {
    const row = await new PartnerKeysRepository(uow.trx).insert({
      org_id: orgId,
      partner,
      lookup: key.lookup,
      key_hash: key.hash,
      created_at: now,
    });
    await ctx.audit.record(
      {
        orgId,
        actorUserId: null,
        actorRealm: 'platform',
        action: 'keys.partner_key.create',
        resourceId: row.id,
        ip: null,
      },
      joinTransaction<AuditTables>(uow.trx),
    );
    return { id: row.id, orgId, partner, raw: key.raw };
  });
}

/**
 * Platform staff (`npm run org -- partner-key-revoke <org_slug> <partner> [<key_id>]`): the
 * organization's live keys of the partner (or the one named) stop working at once; answers the
 * ids revoked. None live is 404.
 */
export async function revokePartnerKeys(
  runtime: Runtime,
  orgSlug: string,
  partner: string,
  keyId: number | null,
): Promise<number[]> {
  checkPartner(partner);
  const orgId = await orgIdOf(runtime, orgSlug);
  const ctx = keysContext(runtime);
  const now = new Date(ctx.clock.now());
  return ctx.transaction(async (uow) => {
    const ids = await new PartnerKeysRepository(uow.trx).revoke(orgId, partner, keyId, now);
    if (ids.length === 0) throw partnerKeyNotFound();
    for (const id of ids)
      await ctx.audit.record(
        {
          orgId,
          actorUserId: null,
          actorRealm: 'platform',
          action: 'keys.partner_key.revoke',
          resourceId: id,
          ip: null,
        },
        joinTransaction<AuditTables>(uow.trx),
      );
    return ids;
  });
}
