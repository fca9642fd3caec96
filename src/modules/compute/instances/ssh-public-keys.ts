import { createHash } from 'node:crypto';

/**
 * OpenSSH public keys (`authorized_keys` lines without options: `<type> <base64 blob> [comment]`,
 * RFC 4253 §6.6, RFC 5656 §3.1, RFC 8709 §4), parsed strictly: the blob is canonical base64 and
 * names the same type, and carries the parts its type has (an RSA modulus of 2048 bits or more,
 * an Ed25519 key of 32 bytes, an ECDSA point on the named curve's size).
 */
export interface SshPublicKey {
  readonly type: string;
  readonly blob: Buffer;
  readonly comment: string;
  /** `SHA256:<base64 without padding>`, as `ssh-keygen -l` prints it. */
  readonly fingerprint: string;
  /** The key as one normalised line. */
  readonly line: string;
}

const ECDSA_POINT_BYTES: Readonly<Record<string, number>> = { nistp256: 65, nistp384: 97, nistp521: 133 };
const TYPES = new Set([
  'ssh-ed25519',
  'ssh-rsa',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
]);
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Reads RFC 4251 `string`s (uint32 length, bytes) from a blob; null past its end. */
class BlobReader {
  private at = 0;
  constructor(private readonly buf: Buffer) {}
  next(): Buffer | null {
    if (this.at + 4 > this.buf.length) return null;
    const len = this.buf.readUInt32BE(this.at);
    if (this.at + 4 + len > this.buf.length) return null;
    const out = this.buf.subarray(this.at + 4, this.at + 4 + len);
    this.at += 4 + len;
    return out;
  }
  done(): boolean {
    return this.at === this.buf.length;
  }
}

/** The key of one line, or why it is not one. */
export function parseSshPublicKey(text: string): SshPublicKey | string {
  const parts = text.trim().split(/\s+/);
  if (parts.length < 2) return 'expected "<type> <base64 key> [comment]"';
  const [type, data] = parts as [string, string];
  if (!TYPES.has(type)) return `unsupported key type ${JSON.stringify(type.slice(0, 40))}`;
  if (!BASE64.test(data)) return 'the key is not base64';
  const blob = Buffer.from(data, 'base64');
  const reader = new BlobReader(blob);
  const inner = reader.next();
  if (inner === null || inner.toString('latin1') !== type) return 'the key does not name its type';
  if (type === 'ssh-ed25519') {
    const key = reader.next();
    if (key === null || key.length !== 32) return 'an Ed25519 key is 32 bytes';
  } else if (type === 'ssh-rsa') {
    const e = reader.next();
    const n = reader.next();
    if (e === null || n === null || e.length === 0) return 'an RSA key has an exponent and a modulus';
    const bits = (n.length - (n[0] === 0 ? 1 : 0)) * 8;
    if (bits < 2048) return 'an RSA key has at least 2048 bits';
  } else {
    const curve = type.slice('ecdsa-sha2-'.length);
    const named = reader.next();
    const point = reader.next();
    if (named === null || named.toString('latin1') !== curve) return 'the key does not name its curve';
    if (point === null || point.length !== ECDSA_POINT_BYTES[curve] || point[0] !== 4)
      return 'the key is not an uncompressed point of its curve';
  }
  if (!reader.done()) return 'the key has trailing bytes';
  const comment = parts.slice(2).join(' ');
  const fingerprint = `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
  return {
    type,
    blob,
    comment,
    fingerprint,
    line: comment === '' ? `${type} ${data}` : `${type} ${data} ${comment}`,
  };
}

/**
 * Every non-blank line of `text` as a key; the first bad line is reported with its number
 * (1-based) and why.
 */
export function parseSshPublicKeys(
  text: string,
): { keys: SshPublicKey[] } | { line: number; reason: string } {
  const keys: SshPublicKey[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() === '') continue;
    const parsed = parseSshPublicKey(lines[i]!);
    if (typeof parsed === 'string') return { line: i + 1, reason: parsed };
    keys.push(parsed);
  }
  return { keys };
}
