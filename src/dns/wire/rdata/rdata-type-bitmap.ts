/**
 * The type bit maps of NSEC (RFC 4034 §4.1.2) and NSEC3 (RFC 5155 §3.2.1): windows of 256 types, each
 * with 1–32 bitmap octets, empty windows and trailing zero octets omitted.
 */
import type { Token } from './rdata-token-reader.ts';
import { typeFromText, typeToText } from '../rr-type.ts';
import { RdataError } from './rdata-error.ts';
import type { RdataReader } from './rdata-wire-reader.ts';
import type { RdataWriter } from './rdata-wire-writer.ts';

const MAX_BITMAP_OCTETS = 32;

export function parseTypeList(typeName: string, tokens: readonly Token[]): number[] {
  const types = new Set<number>();
  for (const t of tokens) {
    const n = typeFromText(t.text);
    if (n === null) throw new RdataError('types', `${typeName} type list has an unknown type "${t.text}"`);
    types.add(n);
  }
  return [...types].sort((a, b) => a - b);
}

export function writeTypeBitmap(w: RdataWriter, types: readonly number[]): void {
  let i = 0;
  while (i < types.length) {
    const window = types[i]! >> 8;
    const bitmap = new Uint8Array(MAX_BITMAP_OCTETS);
    let used = 0;
    for (; i < types.length && types[i]! >> 8 === window; i++) {
      const low = types[i]! & 0xff;
      bitmap[low >> 3]! |= 0x80 >> (low & 7);
      used = (low >> 3) + 1;
    }
    w.u8(window).u8(used).raw(bitmap.subarray(0, used));
  }
}

/** Types in the bit map that runs to the end of the RDATA, rejecting non-canonical encodings. */
export function readTypeBitmap(typeName: string, d: RdataReader): number[] {
  const types: number[] = [];
  let lastWindow = -1;
  while (d.remaining > 0) {
    const window = d.u8();
    const length = d.u8();
    if (window <= lastWindow || length === 0 || length > MAX_BITMAP_OCTETS) {
      throw new RdataError('types', `${typeName} data has a malformed type bit map`);
    }
    lastWindow = window;
    const bitmap = d.bytes(length);
    if (bitmap[length - 1] === 0)
      throw new RdataError('types', `${typeName} type bit map has trailing zero octets`);
    bitmap.forEach((octet, i) => {
      for (let bit = 0; bit < 8; bit++) if (octet & (0x80 >> bit)) types.push((window << 8) | (i * 8 + bit));
    });
  }
  return types;
}

export function typeListToText(types: readonly number[]): string {
  return types.map(typeToText).join(' ');
}
