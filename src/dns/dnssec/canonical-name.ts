/**
 * Names in the canonical form of RFC 4034 §6.1/§6.2, on the data plane's name keys (see WireName:
 * lower-cased wire labels without the terminal zero, as a latin1 string; root = "").
 */

const WILDCARD_LABEL = '*';

/** Labels of a key, leftmost first, lower case, as latin1 strings. */
export function labelsOfKey(key: string): string[] {
  const labels: string[] = [];
  let p = 0;
  while (p < key.length) {
    const len = key.charCodeAt(p);
    labels.push(key.slice(p + 1, p + 1 + len));
    p += len + 1;
  }
  return labels;
}

export function keyOfLabels(labels: readonly string[]): string {
  let key = '';
  for (const l of labels) key += String.fromCharCode(l.length) + l;
  return key;
}

/** Uncompressed wire form (terminal zero included) of a key. */
export function wireOfKey(key: string): Uint8Array {
  return new Uint8Array(Buffer.from(`${key}\0`, 'latin1'));
}

/** Wire length (terminal zero included) of the name with this key. */
export function wireLengthOfKey(key: string): number {
  return key.length + 1;
}

/**
 * A string whose plain JavaScript ordering is the canonical DNS name order (RFC 4034 §6.1): labels
 * from the rightmost, each compared as unsigned octets with a shorter prefix first, and a name
 * before its descendants. Octets are shifted up by one so that the separator (U+0000) sorts below
 * every octet.
 */
export function canonicalSortKey(key: string): string {
  const labels = labelsOfKey(key);
  let out = '';
  for (let i = labels.length - 1; i >= 0; i--) {
    if (i !== labels.length - 1) out += '\0';
    const l = labels[i]!;
    for (let j = 0; j < l.length; j++) out += String.fromCharCode(l.charCodeAt(j) + 1);
  }
  return out;
}

export function compareCanonical(a: string, b: string): number {
  const x = canonicalSortKey(a);
  const y = canonicalSortKey(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** RRSIG Labels field (RFC 4034 §3.1.3): labels of the owner, root and a leading "*" not counted. */
export function rrsigLabels(ownerKey: string): number {
  const labels = labelsOfKey(ownerKey);
  return labels[0] === WILDCARD_LABEL ? labels.length - 1 : labels.length;
}

/** True when `key` is `ancestor` or below it (on label boundaries). */
export function isAtOrBelow(key: string, ancestor: string): boolean {
  if (!key.endsWith(ancestor)) return false;
  let p = 0;
  const start = key.length - ancestor.length;
  while (p < start) p += key.charCodeAt(p) + 1;
  return p === start;
}
