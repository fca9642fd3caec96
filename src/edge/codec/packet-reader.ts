/**
 * Fields of one frame, read in order (wiki.vg "Protocol", "Data types"): VarInt, String (a VarInt
 * byte length, then UTF-8), Unsigned Short, Long. A field that runs past the frame, or a String
 * longer than its limit, makes the read fail (`ok` false) instead of throwing.
 */
import { readVarInt } from './varint.ts';

/** The VarInt read's out-parameter, one per module (a typed array per reader cost an allocation per connection): read at once after each call. */
const scratch = new Int32Array(1);

export class PacketReader {
  private at = 0;
  private failed = false;

  constructor(private readonly frame: Buffer) {}

  /** False once a read ran past the frame or broke a limit. */
  get ok(): boolean {
    return !this.failed;
  }

  /** Bytes left unread. */
  get remaining(): number {
    return this.frame.length - this.at;
  }

  varInt(): number {
    if (this.failed) return 0;
    const size = readVarInt(this.frame, this.at, this.frame.length, scratch);
    if (size < 0) return this.fail();
    this.at += size;
    return scratch[0]!;
  }

  /** A String of at most `maxBytes` UTF-8 bytes. */
  string(maxBytes: number): string {
    const length = this.varInt();
    if (this.failed || length < 0 || length > maxBytes || this.at + length > this.frame.length) {
      this.fail();
      return '';
    }
    const s = this.frame.toString('utf8', this.at, this.at + length);
    this.at += length;
    return s;
  }

  unsignedShort(): number {
    if (this.failed || this.at + 2 > this.frame.length) return this.fail();
    const v = this.frame.readUInt16BE(this.at);
    this.at += 2;
    return v;
  }

  long(): bigint {
    if (this.failed || this.at + 8 > this.frame.length) {
      this.fail();
      return 0n;
    }
    const v = this.frame.readBigInt64BE(this.at);
    this.at += 8;
    return v;
  }

  private fail(): number {
    this.failed = true;
    return 0;
  }
}
