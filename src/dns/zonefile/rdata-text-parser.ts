/**
 * RDATA typed as text (the API's record content): one logical line in presentation format, read
 * by the master-file tokenizer, then by the type's codec (wire/rdata/rdata-codec.ts). It lives on
 * the zonefile floor because it needs the tokenizer; the codecs below only see tokens.
 */
import { RdataError, parseRdata } from '../wire/rdata/rdata-codec.ts';
import type { Token } from '../wire/rdata/rdata-token-reader.ts';
import { ZoneTokenError, tokenizeRdataText } from './zone-file-tokenizer.ts';

/** parseRdata on a single logical line of text (quotes, escapes and parentheses allowed). */
export function parseRdataText(type: number, text: string, origin: string): Uint8Array {
  let tokens: Token[];
  try {
    tokens = tokenizeRdataText(text);
  } catch (e) {
    if (e instanceof ZoneTokenError) throw new RdataError('rdata', e.message);
    throw e;
  }
  return parseRdata(type, tokens, origin);
}
