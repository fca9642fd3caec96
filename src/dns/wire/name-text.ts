/**
 * Domain names in presentation format (RFC 1035 §5.1) and uncompressed wire format (RFC 1035 §3.1).
 *
 * A name is handled as an array of labels, each the label's raw octets: labels may hold any octet
 * (RFC 2181 §11), so strings cannot represent them without an escaping convention. Comparisons are
 * case-insensitive for ASCII letters only (RFC 4343 §3).
 */

/** RFC 1035 §2.3.4: labels are 63 octets or less. */
export const MAX_LABEL_OCTETS = 63;
/** RFC 1035 §2.3.4: names are 255 octets or less in wire form, length octets and root included. */
export const MAX_NAME_OCTETS = 255;

/** The top two bits of a length octet select the label type (RFC 1035 §4.1.4, RFC 6891 §5). */
const LABEL_TYPE_MASK = 0xc0;

export class NameTextError extends Error {
  override readonly name = 'NameTextError';
}

const BACKSLASH = 0x5c;
const DOT = 0x2e;

/**
 * Octets that have a meaning in master files (RFC 1035 §5.1) and are therefore written as `\X`:
 * the label separator, the escape itself, quotes, parentheses, comments, `@` (origin) and `$`
 * (directives, when at the start of a line).
 */
const SPECIAL_OCTETS = new Set([...'.\\"();@$'].map((c) => c.charCodeAt(0)));

const utf8 = new TextEncoder();

interface SplitName {
  labels: Uint8Array[];
  absolute: boolean;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Splits presentation text into labels, resolving `\DDD` and `\X` (RFC 1035 §5.1). */
function splitLabels(text: string): SplitName {
  if (text === '') throw new NameTextError('the name is empty');
  if (text === '.') return { labels: [], absolute: true };
  // Encode once so that non-ASCII characters become their UTF-8 octets and indices are octets.
  const src = utf8.encode(text);
  const labels: Uint8Array[] = [];
  let current: number[] = [];
  let absolute = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === BACKSLASH) {
      const next = src[i + 1];
      if (next === undefined) throw new NameTextError(`the name "${text}" ends with a lone backslash`);
      if (isDigit(next)) {
        const d2 = src[i + 2];
        const d3 = src[i + 3];
        if (d2 === undefined || d3 === undefined || !isDigit(d2) || !isDigit(d3)) {
          throw new NameTextError(`the name "${text}" has a \\DDD escape without three digits`);
        }
        const value = (next - 0x30) * 100 + (d2 - 0x30) * 10 + (d3 - 0x30);
        if (value > 255) throw new NameTextError(`the name "${text}" has an escape \\${value} above 255`);
        current.push(value);
        i += 3;
      } else {
        current.push(next);
        i += 1;
      }
    } else if (c === DOT) {
      if (current.length === 0) throw new NameTextError(`the name "${text}" has an empty label`);
      labels.push(Uint8Array.from(current));
      current = [];
      if (i === src.length - 1) absolute = true;
    } else {
      current.push(c);
    }
  }
  if (!absolute) labels.push(Uint8Array.from(current));
  return { labels, absolute };
}

function checkLengths(labels: readonly Uint8Array[], text: string): void {
  let total = 1; // the root label's length octet
  for (const label of labels) {
    if (label.length > MAX_LABEL_OCTETS) {
      throw new NameTextError(`the name "${text}" has a label of ${label.length} octets (at most 63)`);
    }
    total += label.length + 1;
  }
  if (total > MAX_NAME_OCTETS) {
    throw new NameTextError(`the name "${text}" is ${total} octets long in wire form (at most 255)`);
  }
}

/**
 * Parses a name relative to origin labels: `@` is the origin, a name without a trailing dot gets
 * the origin appended (RFC 1035 §5.1).
 */
export function parseNameWithOrigin(text: string, origin: readonly Uint8Array[]): Uint8Array[] {
  if (text === '@') return [...origin];
  const { labels, absolute } = splitLabels(text);
  const full = absolute ? labels : [...labels, ...origin];
  checkLengths(full, text);
  return full;
}

/** Labels of the absolute name written as `text`; `origin` is a stored-form name (see nameKey). */
export function parseNameText(text: string, origin: string): Uint8Array[] {
  return parseNameWithOrigin(text, parseStoredName(origin));
}

function labelToText(label: Uint8Array, lower: boolean): string {
  let out = '';
  for (let c of label) {
    if (lower && c >= 0x41 && c <= 0x5a) c += 0x20;
    if (SPECIAL_OCTETS.has(c)) out += '\\' + String.fromCharCode(c);
    else if (c > 0x20 && c < 0x7f) out += String.fromCharCode(c);
    else out += '\\' + String(c).padStart(3, '0');
  }
  return out;
}

/** Absolute presentation form with the trailing dot; the root is ".". */
export function nameToText(labels: readonly Uint8Array[]): string {
  if (labels.length === 0) return '.';
  return labels.map((l) => labelToText(l, false)).join('.') + '.';
}

/**
 * The stored form of a name used for owner names across the product: ASCII lower case (RFC 4343),
 * no trailing dot, escapes as in nameToText ("www.example.com"; the root is "").
 */
export function nameKey(labels: readonly Uint8Array[]): string {
  return labels.map((l) => labelToText(l, true)).join('.');
}

/** Labels of a stored-form name; a trailing dot is tolerated, "" and "." are the root. */
export function parseStoredName(s: string): Uint8Array[] {
  if (s === '' || s === '.') return [];
  const { labels } = splitLabels(s);
  checkLengths(labels, s);
  return labels;
}

/** Uncompressed wire form (RFC 1035 §3.1). */
export function nameToWire(labels: readonly Uint8Array[]): Uint8Array {
  let size = 1;
  for (const l of labels) size += l.length + 1;
  const out = new Uint8Array(size);
  let p = 0;
  for (const l of labels) {
    out[p++] = l.length;
    out.set(l, p);
    p += l.length;
  }
  out[p] = 0;
  return out;
}

/**
 * Reads an uncompressed name. Compression pointers are rejected: RDATA in our store is always
 * uncompressed (and RFC 3597 §4 forbids compression in new types); messages are handled elsewhere.
 */
export function nameFromWire(buf: Uint8Array, offset: number): { labels: Uint8Array[]; end: number } {
  const labels: Uint8Array[] = [];
  let p = offset;
  let total = 1;
  for (;;) {
    const len = buf[p];
    if (len === undefined) throw new NameTextError('the name is truncated');
    if ((len & LABEL_TYPE_MASK) === LABEL_TYPE_MASK) {
      throw new NameTextError('compressed names are not allowed here');
    }
    if ((len & LABEL_TYPE_MASK) !== 0)
      throw new NameTextError(`unsupported label type 0x${len.toString(16)}`);
    p += 1;
    if (len === 0) break;
    if (p + len > buf.length) throw new NameTextError('the name is truncated');
    total += len + 1;
    if (total > MAX_NAME_OCTETS) throw new NameTextError('the name is longer than 255 octets');
    labels.push(buf.slice(p, p + len));
    p += len;
  }
  return { labels, end: p };
}

function asciiLower(c: number): number {
  return c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
}

/** Case-insensitive label equality (RFC 4343 §3: only ASCII letters fold). */
export function labelsEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (asciiLower(a[i]!) !== asciiLower(b[i]!)) return false;
  return true;
}

/** Whether `name` is `zone` or below it; both in stored form, compared label-wise. */
export function isSubdomain(name: string, zone: string): boolean {
  const n = parseStoredName(name);
  const z = parseStoredName(zone);
  if (z.length > n.length) return false;
  const shift = n.length - z.length;
  for (let i = 0; i < z.length; i++) if (!labelsEqual(n[shift + i]!, z[i]!)) return false;
  return true;
}
