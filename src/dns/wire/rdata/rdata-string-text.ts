/**
 * <character-string> presentation (RFC 1035 §5.1): tokens keep their escapes as written (see
 * zone-file-tokenizer.ts) and are decoded to octets here; output is always quoted.
 */
import type { Token } from './rdata-token-reader.ts';
import { RdataError } from './rdata-error.ts';

/** RFC 1035 §3.3: a <character-string> holds at most 255 octets after its length octet. */
export const MAX_CHARACTER_STRING_OCTETS = 255;

const utf8 = new TextEncoder();

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/**
 * Octets of escaped text: `\DDD` is the octet DDD (0–255), `\X` is X; other characters are
 * taken as their UTF-8 octets. `describe` names the field in error messages.
 */
export function decodeEscapes(raw: string, field: string, describe: string): Uint8Array {
  const src = utf8.encode(raw);
  const out: number[] = [];
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c !== 0x5c) {
      out.push(c);
      continue;
    }
    const next = src[i + 1];
    if (next === undefined) throw new RdataError(field, `${describe} ends with a lone backslash`);
    if (!isDigit(next)) {
      out.push(next);
      i += 1;
      continue;
    }
    const d2 = src[i + 2];
    const d3 = src[i + 3];
    if (d2 === undefined || d3 === undefined || !isDigit(d2) || !isDigit(d3)) {
      throw new RdataError(field, `${describe} has a \\DDD escape without three digits`);
    }
    const value = (next - 0x30) * 100 + (d2 - 0x30) * 10 + (d3 - 0x30);
    if (value > 255) throw new RdataError(field, `${describe} has an escape \\${value} above 255`);
    out.push(value);
    i += 3;
  }
  return Uint8Array.from(out);
}

/** Whether raw token text holds a `"` that is not escaped. */
function hasBareQuote(raw: string): boolean {
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === '\\') i++;
    else if (raw[i] === '"') return true;
  }
  return false;
}

/** Octets of a token used as a string, quoted or not. */
export function tokenOctets(token: Token, field: string, describe: string): Uint8Array {
  if (!token.quoted && hasBareQuote(token.text)) {
    throw new RdataError(field, `${describe} has a stray quote; quote the whole string or escape it as \\"`);
  }
  return decodeEscapes(token.text, field, describe);
}

/** A token as one <character-string>, at most 255 octets (a longer one is an error, never split). */
export function characterString(token: Token, field: string, describe: string): Uint8Array {
  const octets = tokenOctets(token, field, describe);
  if (octets.length > MAX_CHARACTER_STRING_OCTETS) {
    throw new RdataError(
      field,
      `${describe} is ${octets.length} octets long; a string holds at most ${MAX_CHARACTER_STRING_OCTETS} (split it into several quoted strings)`,
    );
  }
  return octets;
}

/**
 * Escaped text of octets: `"` and `\` as `\"` `\\`, printable ASCII as is, everything else `\DDD`.
 * `extra` lists further characters to escape (for unquoted output).
 */
export function escapeOctets(octets: Uint8Array, extra = ''): string {
  let out = '';
  for (const c of octets) {
    const ch = String.fromCharCode(c);
    if (c === 0x22 || c === 0x5c || (extra !== '' && extra.includes(ch))) out += '\\' + ch;
    else if (c >= 0x20 && c < 0x7f) out += ch;
    else out += '\\' + String(c).padStart(3, '0');
  }
  return out;
}

/** Quoted presentation of a <character-string>. */
export function quoteOctets(octets: Uint8Array): string {
  return `"${escapeOctets(octets)}"`;
}
