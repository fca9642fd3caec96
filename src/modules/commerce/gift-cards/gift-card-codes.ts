import { randomBytes } from 'node:crypto';
import type { Sealer } from '../../../kernel/crypto/sealing.ts';

/** Crockford's base32 without I, L, O, U: no two characters a shopper could mistake. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** 16 characters of 5 bits: 80 random bits, shown as four groups of four. */
const CODE_CHARS = 16;
/** The sealer's context for codes: their tags are worth nothing under any other use. */
const MAC_CONTEXT = 'commerce.gift_card.code';

/** Issues and recognises gift card codes; the code itself is never stored. */
export class GiftCardCodes {
  constructor(
    private readonly sealer: Sealer,
    private readonly random: (bytes: number) => Buffer = randomBytes,
  ) {}

  /** A new code `XXXX-XXXX-XXXX-XXXX`. */
  issue(): string {
    const bytes = this.random(CODE_CHARS);
    const chars = [...bytes].map((b) => ALPHABET[b & 31]!).join('');
    return chars.match(/.{4}/g)!.join('-');
  }

  /** The code as typed (any case, spaces and dashes anywhere) in its one canonical form. */
  normalize(given: string): string {
    return given.toUpperCase().replace(/[\s-]/g, '');
  }

  /** The keyed hash stored for a code (HMAC-SHA256 under a key derived from the sealing key). */
  hash(code: string): string {
    return this.sealer.mac(`${this.normalize(code)}`, MAC_CONTEXT);
  }

  lastFour(code: string): string {
    return this.normalize(code).slice(-4);
  }
}
