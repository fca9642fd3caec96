import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import { invalidFields, type ValidationProblem } from '../../../kernel/errors/app-error.ts';
import { isGrantableScope } from '../../commerce/index.ts';
import { orgKeyRevoked } from '../keys-events.ts';
import { entryProblems, normaliseEntries } from '../shared/ip-allow-list.ts';
import { newKey, ORG_KEY_PREFIX } from '../shared/key-material.ts';
import type { KeysContext } from '../keys-context.ts';
import { apiKeyNotFound } from '../keys-errors.ts';
import type { OrgKeyRow } from '../keys-tables.ts';
import { OrgKeysRepository } from './org-keys-repository.ts';

/** A key as the API shows it: never its digest or lookup; its scopes under `permissions`. */
export type OrgKeyView = JsonView<
  Omit<OrgKeyRow, 'org_id' | 'scopes' | 'lookup' | 'key_hash' | 'revoked_at'>
> & {
  permissions: { scopes: string[] };
};

export function orgKeyView(row: OrgKeyRow): OrgKeyView {
  return {
    id: Number(row.id),
    label: row.label,
    permissions: { scopes: row.scopes },
    rate_limit_per_hour: Number(row.rate_limit_per_hour),
    ip_whitelist: row.ip_whitelist,
    is_active: row.is_active,
    created_at: new Date(row.created_at).toISOString(),
  };
}

export interface CreateOrgKey {
  readonly label: string;
  readonly permissions?: { readonly scopes?: readonly string[] };
  readonly rate_limit_per_hour?: number;
  readonly ip_whitelist?: readonly string[];
}

/**
 * Organization API keys (docs/keys-and-limits.md, "Organization API keys"): created, listed,
 * revoked; never changed.
 */
export class OrgKeysService {
  private readonly repo: OrgKeysRepository;

  constructor(private readonly ctx: KeysContext) {
    this.repo = new OrgKeysRepository(ctx.db);
  }

  async create(orgId: number, body: CreateOrgKey): Promise<OrgKeyView & { raw_key: string }> {
    const scopes = [...(body.permissions?.scopes ?? [])];
    const allow = normaliseEntries(body.ip_whitelist ?? []);
    const problems: ValidationProblem[] = [];
    scopes.forEach((s, i) => {
      if (!isGrantableScope(s)) {
        problems.push({
          type: 'value_error',
          loc: ['body', 'permissions', 'scopes', i],
          msg: `Unknown scope: ${s}`,
          input: s,
          ctx: {},
        });
      }
    });
    problems.push(...entryProblems(allow, ['body', 'ip_whitelist']));
    if (problems.length > 0) throw invalidFields(problems);
    const key = newKey(ORG_KEY_PREFIX);
    const row = await this.repo.insert({
      org_id: orgId,
      label: body.label.trim(),
      scopes: [...new Set(scopes)],
      rate_limit_per_hour: body.rate_limit_per_hour ?? 4000,
      ip_whitelist: allow,
      lookup: key.lookup,
      key_hash: key.hash,
      created_at: new Date(this.ctx.clock.now()),
    });
    return { ...orgKeyView(row), raw_key: key.raw };
  }

  async list(orgId: number): Promise<OrgKeyView[]> {
    return (await this.repo.listOfOrg(orgId)).map(orgKeyView);
  }

  async revoke(orgId: number, keyId: number): Promise<{ id: number; is_active: false }> {
    const row = await this.repo.revoke(orgId, keyId, new Date(this.ctx.clock.now()));
    if (row === null) throw apiKeyNotFound();
    await this.ctx.events
      .publish(orgKeyRevoked, { keyId: Number(row.id), lookup: row.lookup })
      .catch(() => undefined);
    return { id: Number(row.id), is_active: false };
  }
}
