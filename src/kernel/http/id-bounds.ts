import type { FastifySchemaValidationError } from 'fastify';

/**
 * The largest id the API takes: ids are PostgreSQL `bigint` (`bigserial`) columns, read as
 * JavaScript numbers, which hold integers exactly up to 2^53 - 1. A number past it is no id that
 * can exist; sent to the database it would fail as "out of range for type bigint" (a 500).
 */
export const MAX_ID = Number.MAX_SAFE_INTEGER;

type JsonSchema = Record<string, unknown>;

function isInteger(schema: JsonSchema): boolean {
  const type = schema.type;
  return type === 'integer' || (Array.isArray(type) && type.includes('integer'));
}

/**
 * Bounds every integer of a request schema (path, query, body) that declares no bound of its own
 * to ±MAX_ID, in place, once per schema object: an out-of-range id then fails validation before
 * any query (422 in a body or query, 404 in a path: isOutOfRangePathId). Columns narrower than
 * `bigint` declare their own maximum on the route.
 */
export function boundIntegers(schema: unknown, seen: Set<object> = new Set()): void {
  if (typeof schema !== 'object' || schema === null || seen.has(schema)) return;
  seen.add(schema);
  if (Array.isArray(schema)) {
    for (const item of schema) boundIntegers(item, seen);
    return;
  }
  const s = schema as JsonSchema;
  if (isInteger(s)) {
    if (s.maximum === undefined && s.exclusiveMaximum === undefined) {
      s.maximum = MAX_ID;
    }
    if (s.minimum === undefined && s.exclusiveMinimum === undefined) {
      s.minimum = -MAX_ID;
    }
  }
  for (const key of [
    'properties',
    'patternProperties',
    'items',
    'anyOf',
    'oneOf',
    'allOf',
    'additionalProperties',
  ]) {
    const child = s[key];
    if (key === 'properties' || key === 'patternProperties') {
      if (typeof child === 'object' && child !== null)
        for (const v of Object.values(child)) boundIntegers(v, seen);
    } else {
      boundIntegers(child, seen);
    }
  }
}

/**
 * Whether a path's validation failed only because an integer lies past what an id can be
 * (`/zones/99999999999999999999`): no such object exists, so the answer is 404 rather than 422.
 */
export function isOutOfRangePathId(errors: readonly FastifySchemaValidationError[]): boolean {
  return (
    errors.length > 0 &&
    errors.every((error) => {
      const e = error as FastifySchemaValidationError & { data?: unknown };
      if (e.keyword !== 'maximum' && e.keyword !== 'minimum') return false;
      const limit = Math.abs(Number((e.params as { limit?: unknown }).limit));
      return typeof e.data === 'number' && Math.abs(e.data) > MAX_ID && limit <= MAX_ID;
    })
  );
}
