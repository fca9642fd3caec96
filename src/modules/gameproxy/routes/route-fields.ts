import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { GameproxySettings } from '../gameproxy-config.ts';

/** Longest MOTD accepted (the server list shows two lines; formatting codes take room). */
export const MOTD_MAX = 512;
export const NAME_MAX = 100;
export const DESCRIPTION_MAX = 1000;
export const VERSION_NAME_MAX = 64;
/** Largest favicon accepted, decoded (a 64×64 PNG is a few KiB). */
export const FAVICON_MAX_BYTES = 16 * 1024;
const FAVICON_PREFIX = 'data:image/png;base64,';
/** Its text at most: the prefix and the base64 of FAVICON_MAX_BYTES. */
export const FAVICON_MAX_CHARS = FAVICON_PREFIX.length + Math.ceil(FAVICON_MAX_BYTES / 3) * 4;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A favicon is a PNG as a data URL, at most FAVICON_MAX_BYTES decoded (422 naming `loc`). */
export function checkFavicon(favicon: string, loc: readonly string[]): string {
  const problem = (msg: string) => invalidField(loc, msg, favicon.slice(0, 64));
  if (!favicon.startsWith(FAVICON_PREFIX)) throw problem(`A favicon is a ${FAVICON_PREFIX}... data URL`);
  const encoded = favicon.slice(FAVICON_PREFIX.length);
  if (encoded.length % 4 !== 0 || !BASE64.test(encoded)) throw problem('The favicon is not valid base64');
  const png = Buffer.from(encoded, 'base64');
  if (png.length > FAVICON_MAX_BYTES) throw problem(`A favicon is ${FAVICON_MAX_BYTES} bytes at most`);
  if (!png.subarray(0, 8).equals(PNG_SIGNATURE)) throw problem('The favicon is not a PNG image');
  return favicon;
}

/** The status cache TTL asked for, within the policy's bounds; null or absent → its default. */
export function statusCacheTtl(
  ttl: number | null | undefined,
  policy: GameproxySettings['statusCacheTtl'],
  loc: readonly string[],
): number {
  if (ttl === null || ttl === undefined) return policy.default;
  if (ttl < policy.min || ttl > policy.max)
    throw invalidField(loc, `Between ${policy.min} and ${policy.max} seconds`, ttl);
  return ttl;
}

/** Free text as stored: trimmed, and null when nothing is left. */
export const text = (value: string | null | undefined): string | null =>
  value === null || value === undefined || value.trim() === '' ? null : value.trim();
