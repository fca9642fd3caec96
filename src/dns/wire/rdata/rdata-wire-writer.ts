import { nameToWire } from '../name-text.ts';
import { RdataError } from './rdata-error.ts';

/** RDLENGTH is a 16-bit field (RFC 1035 §3.2.1). */
export const MAX_RDATA_OCTETS = 0xffff;

/** Accumulates RDATA octets; big-endian integers as everywhere in DNS (RFC 1035 §2.3.2). */
export class RdataWriter {
  private readonly bytes: number[] = [];

  constructor(private readonly typeName: string) {}

  u8(n: number): this {
    this.bytes.push(n & 0xff);
    return this;
  }

  u16(n: number): this {
    this.bytes.push((n >>> 8) & 0xff, n & 0xff);
    return this;
  }

  u32(n: number): this {
    this.bytes.push((n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
    return this;
  }

  raw(b: Uint8Array): this {
    for (const x of b) this.bytes.push(x);
    return this;
  }

  name(labels: readonly Uint8Array[]): this {
    return this.raw(nameToWire(labels));
  }

  get length(): number {
    return this.bytes.length;
  }

  finish(): Uint8Array {
    if (this.bytes.length > MAX_RDATA_OCTETS) {
      throw new RdataError(
        'rdata',
        `${this.typeName} data is ${this.bytes.length} octets long (at most ${MAX_RDATA_OCTETS})`,
      );
    }
    return Uint8Array.from(this.bytes);
  }
}
