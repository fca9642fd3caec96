import type { ValidationProblem } from '../errors/app-error.ts';

/** Request fields that carry secrets: never echoed back in a 422's `input`, on any route. */
export const SECRET_FIELDS: ReadonlySet<string> = new Set([
  'password',
  'new_password',
  'current_password',
  'code',
  'secret',
  'token',
  'refresh_token',
  'access_token',
  'mfa_token',
  'raw_key',
  'api_key',
]);

export const REDACTED = '<redacted>';

function redactValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactValue);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_FIELDS.has(k) ? REDACTED : redactValue(v);
  return out;
}

/**
 * The problem with its `input` cleaned: the whole input when the problem is about a secret field
 * (its `loc` names one), else every secret field inside an object input (a missing field's
 * problem carries the whole body).
 */
export function redactProblem(problem: ValidationProblem): ValidationProblem {
  const aboutSecret = problem.loc.some((part) => typeof part === 'string' && SECRET_FIELDS.has(part));
  if (aboutSecret) return { ...problem, input: problem.input === null ? null : REDACTED };
  return { ...problem, input: redactValue(problem.input) };
}
