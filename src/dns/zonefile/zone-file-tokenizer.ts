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

export type Token = { text: string; quoted: boolean };

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

function isSpace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\r';
}

/** Characters that end an unquoted token (RFC 1035 §5.1). */
function isDelimiter(c: string): boolean {
  return isSpace(c) || c === '\n' || c === ';' || c === '(' || c === ')' || c === '"';
}

class Scanner {
  pos = 0;
  line = 1;
  readonly out: ZoneLine[] = [];

  constructor(private readonly text: string) {}

  run(): ZoneLine[] {
    while (this.pos < this.text.length) this.entry();
    return this.out;
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
    const blankOwner = isSpace(text[this.pos] ?? '');
    const tokens: Token[] = [];
    let error: string | null = null;
    let depth = 0;
    let openLine = 0;
    const fail = (message: string): void => {
      error ??= message;
    };
    while (this.pos < text.length) {
      const c = text[this.pos]!;
      if (c === '\n') {
        this.pos++;
        this.line++;
        if (depth === 0) break;
      } else if (isSpace(c)) {
        this.pos++;
      } else if (c === ';') {
        this.skipToLineEnd();
      } else if (c === '(') {
        if (depth === 0) openLine = this.line;
        depth++;
        this.pos++;
      } else if (c === ')') {
        if (depth === 0) fail("unbalanced parentheses: ')' without a matching '('");
        else depth--;
        this.pos++;
      } else if (c === '"') {
        this.pos++;
        const body = this.quoted(fail);
        tokens.push({ text: body, quoted: true });
      } else {
        tokens.push({ text: this.unquoted(fail), quoted: false });
      }
    }
    if (depth > 0) {
      // EOF inside parentheses. Report it on the entry, then resume at the next physical line that
      // starts in column 0 (most likely the next owner), so that later records are still checked.
      this.out.push({
        line: startLine,
        blankOwner,
        tokens,
        error: `unbalanced parentheses: '(' on line ${openLine} is never closed`,
      });
      this.resumeAfter(startPos, startLine);
      return;
    }
    if (tokens.length > 0 || error !== null) this.out.push({ line: startLine, blankOwner, tokens, error });
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
      const c = text[pos];
      if (c !== undefined && !isSpace(c) && c !== '\n' && c !== ';' && c !== ')') break;
    }
    this.pos = pos;
    this.line = line;
  }

  /** Body of a quoted string after the opening quote; stops at the closing quote or line end. */
  private quoted(fail: (m: string) => void): string {
    const text = this.text;
    let body = '';
    while (this.pos < text.length) {
      const c = text[this.pos]!;
      if (c === '"') {
        this.pos++;
        return body;
      }
      if (c === '\n') break;
      if (c === '\\' && this.pos + 1 < text.length && text[this.pos + 1] !== '\n') {
        body += c + text[this.pos + 1];
        this.pos += 2;
        continue;
      }
      body += c;
      this.pos++;
    }
    fail('unbalanced quotes: a quoted string is not closed on its line');
    return body;
  }

  private unquoted(fail: (m: string) => void): string {
    const text = this.text;
    let out = '';
    while (this.pos < text.length) {
      const c = text[this.pos]!;
      if (c === '\\') {
        const next = text[this.pos + 1];
        if (next === undefined || next === '\n') {
          out += c;
          this.pos++;
          continue;
        }
        out += c + next;
        this.pos += 2;
        continue;
      }
      if (c === '"') {
        if (out === '') break;
        // key="value" (RFC 9460 §2.1): the quoted segment belongs to this token.
        this.pos++;
        out += '"' + this.quoted(fail) + '"';
        continue;
      }
      if (isDelimiter(c)) break;
      out += c;
      this.pos++;
    }
    return out;
  }
}

/** All entries of a master file; syntax errors are reported per entry, never thrown. */
export function tokenizeZoneFile(text: string): ZoneLine[] {
  return new Scanner(text).run();
}

/**
 * Tokens of one logical line (RDATA typed by a user): quotes, escapes, comments and parentheses are
 * allowed, several entries are not.
 */
export function tokenizeRdataText(text: string): Token[] {
  const lines = new Scanner(text.replace(/^[ \t\r\n]+/, '')).run();
  if (lines.length === 0) return [];
  const first = lines[0]!;
  if (first.error !== null) throw new ZoneTokenError(first.error);
  if (lines.length > 1)
    throw new ZoneTokenError('the data must be on one line (use parentheses to continue it)');
  return first.tokens;
}
