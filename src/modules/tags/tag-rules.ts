/**
 * What a tag is: 1–64 characters of lower-case letters, digits, `-`, `_`, `.`, `:`
 * (input is lower-cased first); at most 50 on one resource; on one of the source types below.
 */
export const TAG_PATTERN = /^[a-z0-9_.:-]{1,64}$/;
export const MAX_TAGS_PER_RESOURCE = 50;
export const SOURCE_TYPES = ['service', 'vps', 'container_server', 'dns_zone'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

export const TAG_RULE = 'A tag is 1 to 64 characters: lower-case letters, digits, "-", "_", "." or ":"';

/** The tag as stored, or null when it is not one. */
export function normaliseTag(input: string): string | null {
  const tag = input.trim().toLowerCase();
  return TAG_PATTERN.test(tag) ? tag : null;
}
