/**
 * Splits master-file text (RFC 1035 §5.1) into logical lines of tokens.
 *
 * How escapes reach parsers: a Token's `text` is the token exactly as written, with `\X` and `\DDD`
 * escapes left untouched and only the surrounding quotes of a quoted string removed. Each consumer
 * resolves escapes for its own field kind: names need the raw form (`a\.b` is one label, `a.b` two),
 * character-strings decode it to octets (see rdata-string-text.ts), numbers reject backslashes.
 *
 * A quote inside an unquoted token (`alpn="h2,h3"`, RFC 9460 §2.1) does not end the token: the quoted
 * segment, quotes included, stays part of the token text, and whitespace inside it is kept.
 */

import type { Token } from '../wire/rdata/rdata-token-reader.ts';

export type { Token };

/** One entry of a master file, possibly spread over several physical lines by parentheses. */
export interface ZoneLine {
  /** 1-based physical line on which the entry starts. */
  line: number;
  /** The entry starts with whitespace: its owner is the previous owner (RFC 1035 §5.1). */
  blankOwner: boolean;
  tokens: Token[];
  /** First syntax error found in this entry (unbalanced parentheses or quotes), or null. */
  error: string | null;
}

export class ZoneTokenError extends Error {
  override readonly name = 'ZoneTokenError';
}

const SPACE = 0x20;
const TAB = 0x09;
const CR = 0x0d;
const NEWLINE = 0x0a;
const SEMICOLON = 0x3b;
const OPEN = 0x28;
const CLOSE = 0x29;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

// Character codes rather than one-character strings: the scanner runs once per input character.
function isSpace(c: number): boolean {
  return c === SPACE || c === TAB || c === CR;
}

/** Characters that end an unquoted token (RFC 1035 §5.1). */
function isDelimiterCode(c: number): boolean {
  return isSpace(c) || c === NEWLINE || c === SEMICOLON || c === OPEN || c === CLOSE || c === QUOTE;
}

class Scanner {
  pos = 0;
  line = 1;
  /** First syntax error of the entry being read. */
  private error: string | null = null;

  /** `emit` gets each entry as soon as it is read, so callers need not hold them all at once. */
  constructor(
    private readonly text: string,
    private readonly emit: (entry: ZoneLine) => void,
  ) {}

  run(): void {
    while (this.pos < this.text.length) this.entry();
  }

  private fail(message: string): void {
    this.error ??= message;
  }

  private skipToLineEnd(): void {
    const nl = this.text.indexOf('\n', this.pos);
    this.pos = nl === -1 ? this.text.length : nl;
  }

  /** Reads one logical line starting at the beginning of a physical line. */
  private entry(): void {
    const text = this.text;
    const startLine = this.line;
    const startPos = this.pos;
    const blankOwner = isSpace(text.charCodeAt(this.pos));
    const tokens: Token[] = [];
    this.error = null;
    let depth = 0;
    let openLine = 0;
    while (this.pos < text.length) {
      const c = text.charCodeAt(this.pos);
      if (c === NEWLINE) {
        this.pos++;
        this.line++;
        if (depth === 0) break;
      } else if (isSpace(c)) {
        this.pos++;
      } else if (c === SEMICOLON) {
        this.skipToLineEnd();
      } else if (c === OPEN) {
        if (depth === 0) openLine = this.line;
        depth++;
        this.pos++;
      } else if (c === CLOSE) {
        if (depth === 0) this.fail("unbalanced parentheses: ')' without a matching '('");
        else depth--;
        this.pos++;
      } else if (c === QUOTE) {
        this.pos++;
        const body = this.quoted();
        tokens.push({ text: body, quoted: true });
      } else {
        tokens.push({ text: this.unquoted(), quoted: false });
      }
    }
    if (depth > 0) {
      // EOF inside parentheses. Report it on the entry, then resume at the next physical line that
      // starts in column 0 (most likely the next owner), so that later records are still checked.
      this.emit({
        line: startLine,
        blankOwner,
        tokens,
        error: `unbalanced parentheses: '(' on line ${openLine} is never closed`,
      });
      this.resumeAfter(startPos, startLine);
      return;
    }
    const error = this.error;
    if (tokens.length > 0 || error !== null) this.emit({ line: startLine, blankOwner, tokens, error });
  }

  private resumeAfter(startPos: number, startLine: number): void {
    const text = this.text;
    let pos = startPos;
    let line = startLine;
    for (;;) {
      const nl = text.indexOf('\n', pos);
      if (nl === -1) {
        this.pos = text.length;
        return;
      }
      pos = nl + 1;
      line++;
      const c = text.charCodeAt(pos);
      if (!Number.isNaN(c) && !isSpace(c) && c !== NEWLINE && c !== SEMICOLON && c !== CLOSE) break;
    }
    this.pos = pos;
    this.line = line;
  }

  /** Body of a quoted string after the opening quote; stops at the closing quote or line end. */
  private quoted(): string {
    const text = this.text;
    // The body is the raw text (escapes stay as written), so one slice is enough.
    const start = this.pos;
    while (this.pos < text.length) {
      const c = text.charCodeAt(this.pos);
      if (c === QUOTE) {
        const body = text.slice(start, this.pos);
        this.pos++;
        return body;
      }
      if (c === NEWLINE) break;
      if (c === BACKSLASH && this.pos + 1 < text.length && text.charCodeAt(this.pos + 1) !== NEWLINE) {
        this.pos += 2;
        continue;
      }
      this.pos++;
    }
    this.fail('unbalanced quotes: a quoted string is not closed on its line');
    return text.slice(start, this.pos);
  }

  private unquoted(): string {
    const text = this.text;
    // Escapes stay as written, so the token is a slice of the text; only an embedded quoted
    // segment (which may be unclosed, and then gets its closing quote added) needs assembling.
    let out = '';
    let start = this.pos;
    while (this.pos < text.length) {
      const c = text.charCodeAt(this.pos);
      if (c === BACKSLASH) {
        const next = text.charCodeAt(this.pos + 1);
        this.pos += Number.isNaN(next) || next === NEWLINE ? 1 : 2;
        continue;
      }
      if (c === QUOTE) {
        if (out === '' && this.pos === start) break;
        // key="value" (RFC 9460 §2.1): the quoted segment belongs to this token.
        out += text.slice(start, this.pos);
        this.pos++;
        out += '"' + this.quoted() + '"';
        start = this.pos;
        continue;
      }
      if (isDelimiterCode(c)) break;
      this.pos++;
    }
    return out + text.slice(start, this.pos);
  }
}

/** All entries of a master file; syntax errors are reported per entry, never thrown. */
export function tokenizeZoneFile(text: string): ZoneLine[] {
  const out: ZoneLine[] = [];
  scanZoneFile(text, (entry) => out.push(entry));
  return out;
}

/** tokenizeZoneFile, handing over each entry as it is read. */
export function scanZoneFile(text: string, onEntry: (entry: ZoneLine) => void): void {
  new Scanner(text, onEntry).run();
}

/**
 * Tokens of one logical line (RDATA typed by a user): quotes, escapes, comments and parentheses are
 * allowed, several entries are not.
 */
export function tokenizeRdataText(text: string): Token[] {
  const lines = tokenizeZoneFile(text.replace(/^[ \t\r\n]+/, ''));
  if (lines.length === 0) return [];
  const first = lines[0]!;
  if (first.error !== null) throw new ZoneTokenError(first.error);
  if (lines.length > 1)
    throw new ZoneTokenError('the data must be on one line (use parentheses to continue it)');
  return first.tokens;
}
