import { LABEL_MAX, NAME_MAX } from './message/message-constants.ts';

/**
 * A domain name compiled once for lookups and for compressed writing.
 * `key` forms are canonical: the lower-cased wire labels without the terminal zero, as a latin1 string
 * (root = ''). The key of a parent name is a suffix of the child's key, so `keys[i]` is the key of the
 * name that starts at label i. Label i starts at byte labelOffset(name, i) of the wire form (the key
 * is the wire without its terminal zero, lower-cased, so neither offsets nor length are stored).
 */
export class WireName {
  constructor(
    /** keys[i]: canonical key of the suffix starting at label i; keys.length = label count. */
    readonly keys: readonly string[],
    /**
     * Holds the uncompressed wire form (terminal zero included, letter case as given) at
     * [at, at + wireSize(this)): a snapshot's names share its byte arena, so a name costs no
     * typed array of its own.
     */
    readonly bytes: Uint8Array,
    readonly at: number,
  ) {}

  /** The uncompressed wire form (a view when the name shares its bytes; hot paths use bytes/at). */
  get wire(): Uint8Array {
    const size = wireSize(this);
    return this.at === 0 && this.bytes.length === size
      ? this.bytes
      : this.bytes.subarray(this.at, this.at + size);
  }
}

/** Length of the uncompressed wire form of `name`. */
export function wireSize(name: WireName): number {
  const keys = name.keys;
  return keys.length > 0 ? keys[0]!.length + 1 : 1;
}

/** Byte offset of label i in the wire form of `name`. */
export function labelOffset(name: WireName, i: number): number {
  const keys = name.keys;
  return keys[0]!.length - keys[i]!.length;
}

/** True when both names are spelled alike (same bytes, letter case included). */
export function sameSpelling(a: WireName, b: WireName): boolean {
  const size = wireSize(a);
  if (size !== wireSize(b)) return false;
  for (let i = 0; i < size; i++) if (a.bytes[a.at + i] !== b.bytes[b.at + i]) return false;
  return true;
}

const LOWER = new Uint8Array(256).map((_, i) => (i >= 0x41 && i <= 0x5a ? i + 0x20 : i));

/** ASCII lower-casing table (DNS names compare case-insensitively in ASCII only, RFC 4343 §3). */
export function lowerByte(b: number): number {
  return LOWER[b]!;
}

/** Compiles uncompressed wire labels (terminal zero included) into a WireName; throws on bad input. */
export function wireNameFromWire(wire: Uint8Array): WireName {
  if (wire.length > NAME_MAX) throw new Error('name too long');
  const offsets: number[] = [];
  let lower = '';
  let pos = 0;
  for (;;) {
    const len = wire[pos];
    if (len === undefined) throw new Error('name without terminal label');
    if (len === 0) break;
    if (len > LABEL_MAX) throw new Error('label too long');
    offsets.push(pos);
    lower += String.fromCharCode(len);
    for (let i = 1; i <= len; i++) {
      const b = wire[pos + i];
      if (b === undefined) throw new Error('truncated label');
      lower += String.fromCharCode(LOWER[b]!);
    }
    pos += len + 1;
  }
  if (pos + 1 !== wire.length) throw new Error('trailing bytes after name');
  const keys = offsets.map((o) => lower.slice(o));
  return new WireName(keys, wire, 0);
}

/**
 * Parses a stored-form name (no trailing dot, root "", presentation escapes \X and \DDD allowed,
 * RFC 1035 §5.1) into a WireName.
 */
export function wireNameFromText(text: string): WireName {
  return plainWireName(text) ?? escapedWireName(text);
}

/**
 * wireNameFromText for the usual name: plain latin1 labels, no escapes (null otherwise). One pass
 * writes the wire form and its lower-cased key side by side: text byte i is wire byte i + 1, and
 * each dot becomes the next label's length octet. A zone load parses every owner with it.
 */
function plainWireName(text: string): WireName | null {
  let end = text.length;
  if (end > 0 && text.charCodeAt(end - 1) === 0x2e) end--;
  if (end === 0 || end + 2 > NAME_MAX) return null;
  const wire = new Uint8Array(end + 2);
  const lower = Buffer.allocUnsafe(end + 1);
  let head = 0;
  let labels = 1;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2e) {
      const len = i - head;
      if (len === 0 || len > LABEL_MAX) throw new Error(`bad label in ${text}`);
      wire[head] = lower[head] = len;
      head = i + 1;
      labels++;
    } else if (c === 0x5c || c > 0xff) {
      return null;
    } else {
      wire[i + 1] = c;
      lower[i + 1] = LOWER[c]!;
    }
  }
  const len = end - head;
  if (len === 0 || len > LABEL_MAX) throw new Error(`bad label in ${text}`);
  wire[head] = lower[head] = len;
  const key = lower.toString('latin1', 0, end + 1);
  const keys = new Array<string>(labels);
  keys[0] = key;
  for (let i = 1, p = 0; i < labels; i++) {
    p += lower[p]! + 1;
    keys[i] = key.slice(p);
  }
  return new WireName(keys, wire, 0);
}

/** wireNameFromText for any name, escapes included. */
function escapedWireName(text: string): WireName {
  const bytes: number[] = [];
  if (text !== '' && text !== '.') {
    const body = text.endsWith('.') && !text.endsWith('\\.') ? text.slice(0, -1) : text;
    let label: number[] = [];
    const flush = (): void => {
      if (label.length === 0 || label.length > LABEL_MAX) throw new Error(`bad label in ${text}`);
      bytes.push(label.length, ...label);
      label = [];
    };
    for (let i = 0; i < body.length; i++) {
      const c = body.charCodeAt(i);
      if (c === 0x2e) {
        flush();
      } else if (c === 0x5c) {
        const d = body.slice(i + 1, i + 4);
        if (/^\d{3}$/.test(d)) {
          const v = Number(d);
          if (v > 255) throw new Error(`bad escape in ${text}`);
          label.push(v);
          i += 3;
        } else {
          if (i + 1 >= body.length) throw new Error(`dangling escape in ${text}`);
          label.push(body.charCodeAt(++i) & 0xff);
        }
      } else {
        if (c > 0xff) throw new Error(`non-latin1 character in ${text}`);
        label.push(c);
      }
    }
    flush();
  }
  bytes.push(0);
  return wireNameFromWire(Uint8Array.from(bytes));
}

/** The key of a name's parent: the key without its first label (see WireName). */
export function parentKey(key: string): string {
  return key.slice(key.charCodeAt(0) + 1);
}

/** The key is a wildcard's (its first label is "*", RFC 4592). */
export function isWildcardKey(key: string): boolean {
  return key.charCodeAt(0) === 1 && key.charCodeAt(1) === 0x2a;
}

/** Canonical key (see WireName) of a stored-form name. */
export function keyOfText(text: string): string {
  return wireNameFromText(text).keys[0] ?? '';
}

/** Reads an uncompressed name from rdata at `pos`; returns the name and the offset after it. */
export function readRdataName(rdata: Uint8Array, pos: number): { name: WireName; end: number } {
  let p = pos;
  for (;;) {
    const len = rdata[p];
    if (len === undefined) throw new Error('truncated name in rdata');
    if (len > LABEL_MAX) throw new Error('compressed or extended label in rdata');
    p += len + 1;
    if (len === 0) break;
  }
  return { name: wireNameFromWire(rdata.subarray(pos, p)), end: p };
}
