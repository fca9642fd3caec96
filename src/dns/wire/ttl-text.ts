/**
 * TTL-like durations in master files: a plain decimal number of seconds (RFC 1035 §5.1) or the
 * BIND unit form (`1h`, `2d`, `1w3d`, `1h30m`), accepted by BIND, Knot and NSD alike.
 */

/** RFC 2181 §8: a TTL is an unsigned number from 0 to 2^31 - 1. */
export const MAX_TTL = 2_147_483_647;
/** 32-bit unsigned fields such as the SOA timers (RFC 1035 §3.3.13). */
export const MAX_UINT32 = 4_294_967_295;

const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

const PLAIN = /^[0-9]+$/;
const WITH_UNITS = /^(?:[0-9]+[smhdw])+$/i;
const UNIT_PART = /([0-9]+)([smhdw])/gi;

/** Seconds denoted by `text`, or null when it is not a duration. The caller checks the range. */
export function parseDuration(text: string): number | null {
  if (PLAIN.test(text)) return Number(text);
  if (!WITH_UNITS.test(text)) return null;
  let total = 0;
  for (const m of text.matchAll(UNIT_PART)) total += Number(m[1]) * UNIT_SECONDS[m[2]!.toLowerCase()]!;
  return total;
}

/** A TTL in 0..MAX_TTL, or null. */
export function parseTtl(text: string): number | null {
  const n = parseDuration(text);
  return n !== null && n <= MAX_TTL ? n : null;
}
