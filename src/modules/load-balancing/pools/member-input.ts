import { PRIVATE_TARGET } from '../load-balancing-errors.ts';
import type { Static } from 'typebox';
import { invalidFields, type ValidationProblem } from '../../../kernel/errors/app-error.ts';
import type { MemberRow } from '../load-balancing-tables.ts';
import { classifyAddress, isAllowedTarget, parseAddress } from '../../../net/address-class.ts';
import type { CreateMemberBody, UpdateMemberBody } from './members-schemas.ts';

export type MemberBody = Static<typeof CreateMemberBody>;
export type MemberPatch = Static<typeof UpdateMemberBody>;

export const ADDRESS_TYPE_FIXED = 'address_type cannot be changed after creation';
const HEALTH_PATH = 'health_path must start with "/"';

/** The stored columns of a member as the API sets them (health results are the checker's). */
export type MemberValues = Omit<
  MemberRow,
  | 'id'
  | 'pool_id'
  | 'zone_id'
  | 'health_streak'
  | 'health_reset_at'
  | 'last_check_at'
  | 'last_error'
  | 'created_at'
  | 'updated_at'
>;

/** `healthy` when nothing is checked, otherwise `unknown` until the first check. */
export const initialHealth = (mode: string): string => (mode === 'none' ? 'healthy' : 'unknown');

/**
 * The address rules: an IP (422 `Invalid IP address: ...`), of the family address_type names,
 * and not in a private or reserved range unless `allowPrivate` (HEALTH_ALLOW_PRIVATE_TARGETS).
 * Answers the canonical text or a problem message.
 */
export function checkAddress(
  address: string,
  type: string,
  allowPrivate: boolean,
): { ok: true; canonical: string } | { ok: false; msg: string } {
  const parsed = parseAddress(address.trim());
  if (parsed === null) return { ok: false, msg: `Invalid IP address: ${address}` };
  if (type === 'A' && parsed.family !== 4) return { ok: false, msg: 'A members require an IPv4 address' };
  if (type === 'AAAA' && parsed.family !== 6)
    return { ok: false, msg: 'AAAA members require an IPv6 address' };
  if (!isAllowedTarget(classifyAddress(parsed.canonical)!, allowPrivate))
    return { ok: false, msg: PRIVATE_TARGET };
  return { ok: true, canonical: parsed.canonical };
}

/** A member to create → its columns; every problem is reported under `loc` (`["body"]` or `["body","members",i]`). */
export function prepareMember(
  body: MemberBody,
  allowPrivate: boolean,
  loc: readonly (string | number)[] = ['body'],
): MemberValues | ValidationProblem[] {
  const problems: ValidationProblem[] = [];
  const type = body.address_type ?? 'A';
  const address = checkAddress(body.address, type, allowPrivate);
  if (!address.ok) {
    problems.push({
      type: 'value_error',
      loc: [...loc, 'address'],
      msg: address.msg,
      input: body.address,
      ctx: {},
    });
  }
  const path = body.health_path ?? '/';
  if (!path.startsWith('/')) {
    problems.push({
      type: 'value_error',
      loc: [...loc, 'health_path'],
      msg: HEALTH_PATH,
      input: path,
      ctx: {},
    });
  }
  if (!address.ok || problems.length > 0) return problems;
  const mode = body.health_mode ?? 'none';
  return {
    address: address.canonical,
    address_type: type,
    weight: body.weight ?? 1,
    priority: body.priority ?? 0,
    enabled: body.enabled ?? true,
    health_mode: mode,
    health_path: path,
    health_port: body.health_port ?? null,
    health_interval_s: body.health_interval_s ?? 30,
    health_timeout_s: body.health_timeout_s ?? 5,
    health_status: initialHealth(mode),
  };
}

/**
 * A PATCH applied to a member → the columns to write (throws 422). A new address or health mode
 * starts the health over at `now`: `healthy` without checks, else `unknown` with the last result
 * cleared, and earlier probes no longer count towards its quorum.
 */
export function patchMember(
  existing: MemberRow,
  patch: MemberPatch,
  allowPrivate: boolean,
  now: Date,
): Partial<MemberRow> {
  const problems: ValidationProblem[] = [];
  const problem = (field: string, msg: string, input: unknown) =>
    problems.push({ type: 'value_error', loc: ['body', field], msg, input, ctx: {} });
  if (patch.address_type !== undefined && patch.address_type !== existing.address_type) {
    problem('address_type', ADDRESS_TYPE_FIXED, patch.address_type);
  }
  const out: Partial<MemberRow> = {};
  if (patch.address !== undefined) {
    const address = checkAddress(patch.address, existing.address_type, allowPrivate);
    if (!address.ok) problem('address', address.msg, patch.address);
    else out.address = address.canonical;
  }
  if (patch.health_path !== undefined && !patch.health_path.startsWith('/')) {
    problem('health_path', HEALTH_PATH, patch.health_path);
  }
  if (problems.length > 0) throw invalidFields(problems);
  for (const key of [
    'weight',
    'priority',
    'enabled',
    'health_mode',
    'health_path',
    'health_port',
    'health_interval_s',
    'health_timeout_s',
  ] as const) {
    if (patch[key] !== undefined) (out as Record<string, unknown>)[key] = patch[key];
  }
  const mode = out.health_mode ?? existing.health_mode;
  const addressMoved = out.address !== undefined && out.address !== existing.address;
  if (addressMoved || mode !== existing.health_mode) {
    out.health_status = initialHealth(mode);
    out.health_streak = 0;
    out.health_reset_at = now;
    out.last_check_at = null;
    out.last_error = null;
  }
  return out;
}
