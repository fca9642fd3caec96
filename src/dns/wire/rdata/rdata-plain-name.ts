/**
 * A fast path for the names that make up nearly every bulk zone file: printable ASCII without
 * escapes or master-file specials (`www`, `mx1.example.com.`). Such text needs no UTF-8 encoding
 * or escape decoding, and its stored form (nameKey) is the text itself in lower case. Anything
 * else — escapes, non-ASCII, empty labels, over-long names — answers null, and the caller uses the
 * general parser (name-text.ts), which also produces the error messages.
 */
import { MAX_LABEL_OCTETS, MAX_NAME_OCTETS } from '../name-text.ts';

const DOT = 0x2e;

/**
 * Printable ASCII (0x21–0x7e) that labelToText writes unescaped: not `.\"();@$`. Letters of either
 * case qualify; the stored form lower-cases them, as nameKey does.
 */
const PLAIN = new Uint8Array(128);
for (let c = 0x21; c < 0x7f; c++) PLAIN[c] = 1;
for (const c of '.\\"();@$') PLAIN[c.charCodeAt(0)] = 0;

/**
 * The labels of the name written as `text` relative to `origin`, as parseNameWithOrigin would
 * answer them (the origin's label arrays are shared, as there), or null when the text is not plain
 * (see above) or not valid. `@` is not handled here.
 */
export function parsePlainName(text: string, origin: readonly Uint8Array[]): Uint8Array[] | null {
  const n = text.length;
  if (n === 0) return null;
  const absolute = text.charCodeAt(n - 1) === DOT;
  const end = absolute ? n - 1 : n;
  if (end === 0) return null; // "." is the root: rare, left to the general parser
  const labels: Uint8Array[] = [];
  let wire = 1; // the root label's length octet
  let start = 0;
  for (let i = 0; i <= end; i++) {
    const c = i === end ? DOT : text.charCodeAt(i);
    if (c === DOT) {
      const len = i - start;
      if (len === 0 || len > MAX_LABEL_OCTETS) return null;
      const label = new Uint8Array(len);
      for (let j = 0; j < len; j++) label[j] = text.charCodeAt(start + j);
      labels.push(label);
      wire += len + 1;
      start = i + 1;
    } else if (c >= 0x80 || PLAIN[c] !== 1) {
      return null;
    }
  }
  if (!absolute) {
    for (const l of origin) {
      labels.push(l);
      wire += l.length + 1;
    }
  }
  return wire > MAX_NAME_OCTETS ? null : labels;
}

/**
 * nameKey of a name that parsePlainName accepted from `text`, given the stored form of the origin
 * it was relative to.
 */
export function plainNameKey(text: string, originKey: string): string {
  if (text.endsWith('.')) return text.slice(0, -1).toLowerCase();
  const relative = text.toLowerCase();
  return originKey === '' ? relative : `${relative}.${originKey}`;
}
