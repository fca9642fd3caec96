import type { JsonView } from '../../../kernel/http/view-schemas.ts';
import { invalidFields, type ValidationProblem } from '../../../kernel/errors/app-error.ts';
import type { AccountsDirectory } from '../../identity/index.ts';
import { entryProblems, normaliseEntries } from '../shared/ip-allow-list.ts';
import { ACCOUNT_KEY_PREFIX, newKey } from '../shared/key-material.ts';
import type { KeysContext } from '../keys-context.ts';
import { apiKeyNotFound } from '../keys-errors.ts';
import type { AccountKeyRow } from '../keys-tables.ts';
import { AccountKeysRepository } from './account-keys-repository.ts';

/** The permission areas a key may name (`<area>:read` or `<area>:write`). */
export const PERMISSION_AREAS = [
  'services',
  'containers',
  'cloud_compute',
  'dns',
  'floating_ips',
  'email',
  'storage',
  'websites',
  'billing',
  'support',
] as const;

const PERMISSION_RE = new RegExp(`^(${PERMISSION_AREAS.join('|')}):(read|write)$`);

/** A key as the API shows it: never its digest or lookup; `last_used_at` kept in the shape, always null. */
export type AccountKeyView = JsonView<
  Omit<AccountKeyRow, 'user_id' | 'lookup' | 'key_hash' | 'deleted_at'>
> & {
  last_used_at: null;
};

function view(row: AccountKeyRow): AccountKeyView {
  return {
    id: Number(row.id),
    label: row.label,
    permissions: row.permissions,
    ip_whitelist: row.ip_whitelist,
    is_active: row.is_active,
    // Stays null, because no request can use an account key.
    last_used_at: null,
    created_at: new Date(row.created_at).toISOString(),
  };
}

/**
 * Account API keys can be created, listed and revoked, but no route accepts one yet; a request
 * carrying one is refused before anything else (account-key-gate.ts). The owner is told by mail
 * when one is created.
 */
export class AccountKeysService {
  private readonly repo: AccountKeysRepository;

  constructor(
    private readonly ctx: KeysContext,
    private readonly accounts: AccountsDirectory,
  ) {
    this.repo = new AccountKeysRepository(ctx.db);
  }

  async create(
    userId: number,
    body: { label: string; permissions?: string[]; ip_whitelist?: string[] },
  ): Promise<AccountKeyView & { raw_key: string }> {
    const permissions = body.permissions ?? [];
    const allow = normaliseEntries(body.ip_whitelist ?? []);
    const problems: ValidationProblem[] = [];
    permissions.forEach((p, i) => {
      if (!PERMISSION_RE.test(p)) {
        problems.push({
          type: 'value_error',
          loc: ['body', 'permissions', i],
          msg: `Permission must be <area>:read or <area>:write with area one of ${PERMISSION_AREAS.join(', ')}`,
          input: p,
          ctx: {},
        });
      }
    });
    problems.push(...entryProblems(allow, ['body', 'ip_whitelist']));
    if (problems.length > 0) throw invalidFields(problems);
    const key = newKey(ACCOUNT_KEY_PREFIX);
    const row = await this.repo.insert({
      user_id: userId,
      label: body.label.trim(),
      permissions,
      ip_whitelist: allow,
      lookup: key.lookup,
      key_hash: key.hash,
      created_at: new Date(this.ctx.clock.now()),
    });
    const [owner] = await this.accounts.usersByIds([userId]);
    if (owner !== undefined) {
      void this.ctx.mail
        .send({
          to: owner.email,
          subject: 'A new API key was created for your account',
          text: `An account API key labelled "${row.label}" was created on ${new Date(row.created_at).toISOString()}.\nIf this was not you, sign in, delete it and change your password.`,
        })
        .catch((error: unknown) => this.ctx.log.error({ err: error }, 'API key notice not sent'));
    }
    return { ...view(row), raw_key: key.raw };
  }

  async list(userId: number, limit: number): Promise<AccountKeyView[]> {
    return (await this.repo.listOfUser(userId, limit)).map(view);
  }

  async delete(userId: number, keyId: number): Promise<{ message: string }> {
    if (!(await this.repo.delete(userId, keyId, new Date(this.ctx.clock.now())))) throw apiKeyNotFound();
    return { message: 'API key revoked' };
  }
}
