import type { FastifyRequest } from 'fastify';
import { invalidField } from '../../../kernel/errors/app-error.ts';

const NUL = '\u0000';

/** The path of the first string (or object key) holding a NUL character, or null. */
function nulAt(value: unknown, path: (string | number)[]): (string | number)[] | null {
  if (typeof value === 'string') return value.includes(NUL) ? path : null;
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      const at = nulAt(v, [...path, i]);
      if (at !== null) return at;
    }
    return null;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (k.includes(NUL)) return [...path, k];
      const at = nulAt(v, [...path, k]);
      if (at !== null) return at;
    }
  }
  return null;
}

/**
 * PostgreSQL stores no NUL character in `text` or `jsonb`: a body or query carrying one (in a
 * value, or a key of free-form metadata) answers 422 naming the field, before any query is made.
 */
export async function refuseNulCharacters(request: FastifyRequest): Promise<void> {
  const at = nulAt(request.body, ['body']) ?? nulAt(request.query, ['query']);
  if (at !== null) throw invalidField(at, 'Text may not contain NUL characters', null);
}
