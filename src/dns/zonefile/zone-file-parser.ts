/**
 * RFC 1035 §5 master files: directives ($ORIGIN, $TTL per RFC 2308), owners, TTL and class in either
 * order, and RDATA through the rdata registry. Every entry is checked; errors are collected one per
 * bad entry, with the line on which the entry starts, and parsing goes on.
 */
import { RdataError, formatRdata, parseRdataAt } from '../wire/rdata/rdata-codec.ts';
import { parsePlainName, plainNameKey } from '../wire/rdata/rdata-plain-name.ts';
import {
  NameTextError,
  labelsEqual,
  nameKey,
  parseNameWithOrigin,
  parseStoredName,
} from '../wire/name-text.ts';
import { typeFromText } from '../wire/rr-type.ts';
import { MAX_TTL, parseDuration } from '../wire/ttl-text.ts';
import { scanZoneFile } from './zone-file-tokenizer.ts';
import type { ZoneLine } from './zone-file-tokenizer.ts';
import type { Token } from '../wire/rdata/rdata-token-reader.ts';

export interface ParsedRecord {
  /** 1-based line on which the record starts. */
  line: number;
  /** Owner in stored form (nameKey): lower case, no trailing dot. */
  name: string;
  type: number;
  ttl: number;
  /** Uncompressed wire RDATA. */
  rdata: Uint8Array;
  /** formatRdata(type, rdata). */
  content: string;
}

export interface ZoneFileError {
  line: number;
  message: string;
}

export interface ZoneFileResult {
  records: ParsedRecord[];
  errors: ZoneFileError[];
}

export interface ZoneFileOptions {
  /** TTL for records without one when the file has neither $TTL nor an earlier explicit TTL. */
  defaultTtl?: number;
}

/** Used when nothing else gives a TTL. */
export const FALLBACK_TTL = 3600;

/** RFC 1035 §3.2.4 classes and their RFC 3597 §5 `CLASSnnn` form; IN is class 1. */
const CLASS_NAMES = new Set(['IN', 'CS', 'CH', 'HS', 'NONE', 'ANY']);
const GENERIC_CLASS = /^CLASS(0|[1-9][0-9]{0,4})$/i;
const CLASS_IN = 1;
/** A field that starts like a number is a TTL (types and classes start with a letter). */
const STARTS_WITH_DIGIT = /^-?[0-9]/;
/** Editors on some systems prefix UTF-8 files with a byte order mark. */
const BYTE_ORDER_MARK = '\uFEFF';

class EntryError extends Error {}

function isClass(text: string): boolean {
  return CLASS_NAMES.has(text.toUpperCase()) || GENERIC_CLASS.test(text);
}

function checkClass(text: string): void {
  const m = GENERIC_CLASS.exec(text);
  if (text.toUpperCase() === 'IN' || (m !== null && Number(m[1]) === CLASS_IN)) return;
  throw new EntryError(`class ${text.toUpperCase()} is not supported (only IN)`);
}

function readTtl(text: string): number {
  const n = parseDuration(text);
  if (n === null) throw new EntryError(`invalid TTL "${text}"`);
  if (n > MAX_TTL) throw new EntryError(`TTL ${text} is out of range (0 to ${MAX_TTL} seconds)`);
  return n;
}

function parseName(text: string, origin: readonly Uint8Array[], what: string): Uint8Array[] {
  try {
    return parseNameWithOrigin(text, origin);
  } catch (e) {
    if (e instanceof NameTextError) throw new EntryError(`invalid ${what}: ${e.message}`);
    throw e;
  }
}

/** Whether `name` is `zone` or below it, label-wise (as isSubdomain on their stored forms). */
function isWithin(name: readonly Uint8Array[], zone: readonly Uint8Array[]): boolean {
  const shift = name.length - zone.length;
  if (shift < 0) return false;
  for (let i = 0; i < zone.length; i++) if (!labelsEqual(name[shift + i]!, zone[i]!)) return false;
  return true;
}

class ZoneFileParser {
  private origin: Uint8Array[];
  /** nameKey of origin and zone, computed once rather than for every record. */
  private originKey: string;
  private readonly zoneKey: string;
  private lastOwner: Uint8Array[] | null = null;
  /** nameKey(lastOwner). */
  private lastOwnerKey = '';
  private dollarTtl: number | null = null;
  private lastExplicitTtl: number | null = null;
  readonly records: ParsedRecord[] = [];

  constructor(
    private readonly zone: Uint8Array[],
    private readonly defaultTtl: number,
  ) {
    this.origin = zone;
    this.zoneKey = nameKey(zone);
    this.originKey = this.zoneKey;
  }

  /** An entry we could not tokenize: its owner (if any) is unknown, so forget the previous one. */
  skip(e: ZoneLine): void {
    if (!e.blankOwner) this.lastOwner = null;
  }

  entry(e: ZoneLine): void {
    const first = e.tokens[0]!;
    if (!e.blankOwner && !first.quoted && first.text.startsWith('$'))
      this.directive(first.text, e.tokens.slice(1));
    else this.record(e);
  }

  private directive(name: string, args: readonly Token[]): void {
    const upper = name.toUpperCase();
    if (upper === '$INCLUDE') throw new EntryError('$INCLUDE is not supported');
    if (upper !== '$ORIGIN' && upper !== '$TTL') throw new EntryError(`unknown directive ${name}`);
    const arg = args[0];
    if (arg === undefined) throw new EntryError(`${upper} needs a value`);
    if (args.length > 1) throw new EntryError(`${upper} takes one value, got extra "${args[1]!.text}"`);
    if (upper === '$ORIGIN') {
      this.origin = parseName(arg.text, this.origin, '$ORIGIN');
      this.originKey = nameKey(this.origin);
    } else this.dollarTtl = readTtl(arg.text);
  }

  private record(e: ZoneLine): void {
    let i = 0;
    let owner: Uint8Array[];
    let name: string;
    if (e.blankOwner) {
      if (this.lastOwner === null)
        throw new EntryError('the record has no owner name and there is no previous one');
      owner = this.lastOwner;
      name = this.lastOwnerKey;
    } else {
      // Blank-owner lines after a bad owner must not silently attach to an older owner.
      this.lastOwner = null;
      const text = e.tokens[0]!.text;
      const plain = text === '@' ? null : parsePlainName(text, this.origin);
      if (plain !== null) {
        owner = plain;
        name = plainNameKey(text, this.originKey);
      } else {
        owner = parseName(text, this.origin, 'owner name');
        name = nameKey(owner);
      }
      this.lastOwner = owner;
      this.lastOwnerKey = name;
      i = 1;
    }
    if (!isWithin(owner, this.zone)) throw new EntryError(`name ${name} is outside the zone ${this.zoneKey}`);

    let ttl: number | null = null;
    let classSeen = false;
    for (; i < e.tokens.length; i++) {
      const text = e.tokens[i]!.text;
      if (!classSeen && isClass(text)) {
        checkClass(text);
        classSeen = true;
      } else if (ttl === null && STARTS_WITH_DIGIT.test(text)) {
        ttl = readTtl(text);
        this.lastExplicitTtl = ttl;
      } else {
        break;
      }
    }
    const typeToken = e.tokens[i];
    if (typeToken === undefined) throw new EntryError('the record is missing its type');
    const type = typeFromText(typeToken.text);
    if (type === null) throw new EntryError(`unknown type ${typeToken.text}`);

    // RFC 2308 §4: $TTL applies to records without a TTL; before it, RFC 1035 §5.1's last TTL.
    ttl ??= this.dollarTtl ?? this.lastExplicitTtl ?? this.defaultTtl;
    const rdata = parseRdataAt(type, e.tokens.slice(i + 1), this.origin);
    this.records.push({ line: e.line, name, type, ttl, rdata, content: formatRdata(type, rdata) });
  }
}

export function parseZoneFile(text: string, origin: string, options?: ZoneFileOptions): ZoneFileResult {
  const errors: ZoneFileError[] = [];
  let zone: Uint8Array[];
  try {
    zone = parseStoredName(origin);
  } catch (e) {
    if (e instanceof NameTextError)
      return { records: [], errors: [{ line: 0, message: `invalid origin: ${e.message}` }] };
    throw e;
  }
  const parser = new ZoneFileParser(zone, options?.defaultTtl ?? FALLBACK_TTL);
  const body = text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text;
  scanZoneFile(body, (entry) => {
    if (entry.error !== null) {
      errors.push({ line: entry.line, message: entry.error });
      parser.skip(entry);
      return;
    }
    try {
      parser.entry(entry);
    } catch (e) {
      if (e instanceof EntryError || e instanceof RdataError)
        errors.push({ line: entry.line, message: e.message });
      else throw e;
    }
  });
  return { records: parser.records, errors };
}
