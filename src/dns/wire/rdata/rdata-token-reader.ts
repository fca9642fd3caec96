import { NameTextError, parseNameWithOrigin } from '../name-text.ts';
import { parseDuration } from '../ttl-text.ts';
import { RdataError } from './rdata-error.ts';
import { parsePlainName } from './rdata-plain-name.ts';

const DECIMAL = /^[0-9]+$/;

/**
 * One presentation-format token as the master-file tokenizer (zonefile/zone-file-tokenizer.ts)
 * produces it: the text exactly as written, `\X` and `\DDD` escapes untouched, only the quotes
 * of a quoted string removed. Each field reader resolves escapes for its own kind of field.
 */
export type Token = { text: string; quoted: boolean };

/**
 * Reads the presentation fields of one RDATA in order, turning every problem into an RdataError
 * that names the field (`what` is the human wording, e.g. "preference").
 */
export class RdataTokenReader {
  private i = 0;

  constructor(
    readonly typeName: string,
    private readonly tokens: readonly Token[],
    readonly origin: readonly Uint8Array[],
  ) {}

  get remaining(): number {
    return this.tokens.length - this.i;
  }

  next(field: string, what: string): Token {
    const t = this.tokens[this.i];
    if (t === undefined) throw new RdataError(field, `${this.typeName} record is missing the ${what}`);
    this.i++;
    return t;
  }

  /** An unsigned decimal integer from 0 to max. */
  int(field: string, what: string, max: number): number {
    const { text } = this.next(field, what);
    if (!DECIMAL.test(text) || Number(text) > max) {
      throw new RdataError(
        field,
        `${this.typeName} ${what} must be an integer from 0 to ${max}, got "${text}"`,
      );
    }
    return Number(text);
  }

  /** A number from 0 to max, or a mnemonic from `table` (case-insensitive). */
  intOrMnemonic(field: string, what: string, max: number, table: Readonly<Record<string, number>>): number {
    const t = this.next(field, what);
    const known = table[t.text.toUpperCase()];
    if (known !== undefined) return known;
    this.i--;
    return this.int(field, what, max);
  }

  /** A TTL-like number of seconds; BIND units (`1h`, `1w3d`) are accepted. */
  duration(field: string, what: string, max: number): number {
    const { text } = this.next(field, what);
    const n = parseDuration(text);
    if (n === null || n > max) {
      throw new RdataError(
        field,
        `${this.typeName} ${what} must be a number of seconds from 0 to ${max} (units s/m/h/d/w allowed), got "${text}"`,
      );
    }
    return n;
  }

  name(field: string, what: string): Uint8Array[] {
    const { text } = this.next(field, what);
    const plain = parsePlainName(text, this.origin);
    if (plain !== null) return plain;
    try {
      return parseNameWithOrigin(text, this.origin);
    } catch (e) {
      if (e instanceof NameTextError) throw new RdataError(field, `${this.typeName} ${what}: ${e.message}`);
      throw e;
    }
  }

  /** All tokens not yet read. */
  rest(): Token[] {
    const out = this.tokens.slice(this.i);
    this.i = this.tokens.length;
    return out;
  }

  /** Every token must have been used. */
  end(): void {
    if (this.i < this.tokens.length) {
      const extra = this.tokens
        .slice(this.i)
        .map((t) => (t.quoted ? `"${t.text}"` : t.text))
        .join(' ');
      throw new RdataError('rdata', `${this.typeName} record has unexpected extra data: ${extra}`);
    }
  }
}
