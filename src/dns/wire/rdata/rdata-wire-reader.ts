import { NameTextError, nameFromWire } from '../name-text.ts';
import { RdataError } from './rdata-error.ts';

/** Sequential, bounds-checked reads of one RDATA; every overrun is an RdataError. */
export class RdataReader {
  private p = 0;

  constructor(
    private readonly typeName: string,
    private readonly buf: Uint8Array,
  ) {}

  private need(n: number): void {
    if (this.p + n > this.buf.length) throw new RdataError('rdata', `${this.typeName} data is truncated`);
  }

  get remaining(): number {
    return this.buf.length - this.p;
  }

  u8(): number {
    this.need(1);
    return this.buf[this.p++]!;
  }

  u16(): number {
    this.need(2);
    const v = (this.buf[this.p]! << 8) | this.buf[this.p + 1]!;
    this.p += 2;
    return v;
  }

  u32(): number {
    this.need(4);
    const v =
      ((this.buf[this.p]! << 24) >>> 0) + (this.buf[this.p + 1]! << 16) + (this.buf[this.p + 2]! << 8);
    const w = v + this.buf[this.p + 3]!;
    this.p += 4;
    return w;
  }

  bytes(n: number): Uint8Array {
    this.need(n);
    const out = this.buf.slice(this.p, this.p + n);
    this.p += n;
    return out;
  }

  rest(): Uint8Array {
    return this.bytes(this.remaining);
  }

  /** <character-string>: one length octet then that many octets (RFC 1035 §3.3). */
  charString(): Uint8Array {
    return this.bytes(this.u8());
  }

  name(): Uint8Array[] {
    try {
      const { labels, end } = nameFromWire(this.buf, this.p);
      this.p = end;
      return labels;
    } catch (e) {
      if (e instanceof NameTextError) throw new RdataError('rdata', `${this.typeName} data: ${e.message}`);
      throw e;
    }
  }

  /** The RDATA must be used up exactly: trailing octets mean the data is not of this type. */
  end(): void {
    if (this.p !== this.buf.length) {
      throw new RdataError('rdata', `${this.typeName} data has ${this.remaining} unexpected trailing octets`);
    }
  }
}
