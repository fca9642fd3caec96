/**
 * EDNS Client Subnet option (RFC 7871 §6), parsed into a reusable object for later steering.
 * Validation follows Knot DNS 3.2 (checked with knotd, edns-client-subnet: on):
 * FAMILY must be 1 (IPv4) or 2 (IPv6); SOURCE and SCOPE PREFIX-LENGTH at most 32/128;
 * ADDRESS at least ceil(SOURCE/8) and at most 16 bytes whatever the family (Knot's buffer size;
 * longer-than-needed is accepted and echoed at its length, bits beyond SOURCE cleared);
 * a non-zero SCOPE in a query is accepted. Anything else → FORMERR.
 */

export const ECS_FAMILY_IPV4 = 1;
export const ECS_FAMILY_IPV6 = 2;
const ADDRESS_MAX = 16;

export interface ClientSubnet {
  present: boolean;
  family: number;
  sourcePrefix: number;
  scopePrefix: number;
  /** Address bytes as sent, with bits beyond sourcePrefix cleared; only `addressLength` bytes count. */
  readonly address: Uint8Array;
  addressLength: number;
}

export function createClientSubnet(): ClientSubnet {
  return {
    present: false,
    family: 0,
    sourcePrefix: 0,
    scopePrefix: 0,
    address: new Uint8Array(ADDRESS_MAX),
    addressLength: 0,
  };
}

/** Parses option data at buf[pos, pos+len) into `out`; returns false when invalid (→ FORMERR). */
export function parseClientSubnet(buf: Uint8Array, pos: number, len: number, out: ClientSubnet): boolean {
  if (len < 4) return false;
  const family = (buf[pos]! << 8) | buf[pos + 1]!;
  const source = buf[pos + 2]!;
  const scope = buf[pos + 3]!;
  const maxBits = family === ECS_FAMILY_IPV4 ? 32 : family === ECS_FAMILY_IPV6 ? 128 : 0;
  if (maxBits === 0 || source > maxBits || scope > maxBits) return false;
  const addrLen = len - 4;
  if (addrLen > ADDRESS_MAX || addrLen < Math.ceil(source / 8)) return false;
  out.present = true;
  out.family = family;
  out.sourcePrefix = source;
  out.scopePrefix = scope;
  out.addressLength = addrLen;
  for (let i = 0; i < addrLen; i++) {
    const bitsBefore = i * 8;
    const keep = source >= bitsBefore + 8 ? 8 : Math.max(0, source - bitsBefore);
    const mask = keep === 8 ? 0xff : (0xff << (8 - keep)) & 0xff;
    out.address[i] = buf[pos + 4 + i]! & mask;
  }
  return true;
}

/** Bytes needed to echo the option (code, length and data). */
export function clientSubnetEchoSize(ecs: ClientSubnet): number {
  return 8 + ecs.addressLength;
}

/**
 * Writes the echo at `pos` with the given SCOPE PREFIX-LENGTH (0 for answers that do not depend on
 * the client address, RFC 7871 §7.2.1); returns the new offset.
 */
export function writeClientSubnetEcho(
  buf: Buffer,
  pos: number,
  ecs: ClientSubnet,
  scope: number,
  optionCode: number,
): number {
  buf.writeUInt16BE(optionCode, pos);
  buf.writeUInt16BE(4 + ecs.addressLength, pos + 2);
  buf.writeUInt16BE(ecs.family, pos + 4);
  buf[pos + 6] = ecs.sourcePrefix;
  buf[pos + 7] = scope;
  for (let i = 0; i < ecs.addressLength; i++) buf[pos + 8 + i] = ecs.address[i]!;
  return pos + 8 + ecs.addressLength;
}
