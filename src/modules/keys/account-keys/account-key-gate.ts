import type { FastifyRequest } from 'fastify';
import { ACCOUNT_KEY_PREFIX } from '../shared/key-material.ts';
import { accountKeyRefused } from '../keys-errors.ts';

/**
 * The account-key refusal (docs/keys-and-limits.md, "Credentials"): a request that carries an
 * account API key in any way — as the Bearer token, in `X-API-Key` (any letter case: HTTP header
 * names are case-insensitive), or as the query parameter `api_key` — answers 401 on every route,
 * before anything else is checked.
 */
export function refuseAccountKeys(request: FastifyRequest): void {
  const auth = request.headers.authorization;
  if (auth !== undefined && /^Bearer\s+acct_/i.test(auth)) throw accountKeyRefused();
  const header = request.headers['x-api-key'];
  const values = Array.isArray(header) ? header : header === undefined ? [] : [header];
  if (values.some((v) => v.trim().startsWith(ACCOUNT_KEY_PREFIX))) throw accountKeyRefused();
  const query = request.query as Record<string, unknown> | undefined;
  const fromQuery = query?.api_key;
  if (typeof fromQuery === 'string' && fromQuery.startsWith(ACCOUNT_KEY_PREFIX)) throw accountKeyRefused();
  if (
    Array.isArray(fromQuery) &&
    fromQuery.some((v) => typeof v === 'string' && v.startsWith(ACCOUNT_KEY_PREFIX))
  ) {
    throw accountKeyRefused();
  }
}
