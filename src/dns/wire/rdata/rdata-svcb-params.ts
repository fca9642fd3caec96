/**
 * SvcParam keys and values of SVCB/HTTPS (RFC 9460 §7, §14.3.2): presentation text ↔ wire octets for
 * each key. Values arrive here already decoded from master-file escapes (RFC 1035 §5.1); list values
 * then use the comma-separated value-list escaping of RFC 9460 Appendix A.1 (`\,` and `\\`).
 */
import { bytesToIpv4, bytesToIpv6, ipv4ToBytes, ipv6ToBytes } from '../../../net/ip-address-text.ts';
import { base64ToBytes, bytesToBase64 } from './rdata-binary-text.ts';
import { RdataError } from './rdata-error.ts';
import { escapeOctets } from './rdata-string-text.ts';

export const SVC_KEY = {
  mandatory: 0,
  alpn: 1,
  'no-default-alpn': 2,
  port: 3,
  ipv4hint: 4,
  ech: 5,
  ipv6hint: 6,
  /** RFC 9461 §5 (DNS over HTTPS URI template). */
  dohpath: 7,
  /** RFC 9540 §4 (Oblivious HTTP); takes no value. */
  ohttp: 8,
} as const;

/** RFC 9460 §14.3.2: 65535 is the reserved "Invalid key". */
export const INVALID_SVC_KEY = 65535;
const MAX_ALPN_ID_OCTETS = 255;
const IPV4_OCTETS = 4;
const IPV6_OCTETS = 16;

const KEY_BY_NUMBER = new Map<number, string>(Object.entries(SVC_KEY).map(([k, v]) => [v, k]));
const GENERIC_KEY = /^key(0|[1-9][0-9]{0,4})$/;

/** Key number of a presentation key name (`alpn`, `key667`), or null. */
export function svcKeyFromText(text: string): number | null {
  const lower = text.toLowerCase();
  if (Object.hasOwn(SVC_KEY, lower)) return SVC_KEY[lower as keyof typeof SVC_KEY];
  const m = GENERIC_KEY.exec(lower);
  if (m === null) return null;
  const n = Number(m[1]);
  return n < INVALID_SVC_KEY ? n : null;
}

export function svcKeyToText(key: number): string {
  return KEY_BY_NUMBER.get(key) ?? `key${key}`;
}

function fail(typeName: string, key: number, message: string): RdataError {
  return new RdataError('params', `${typeName} ${svcKeyToText(key)} ${message}`);
}

const latin1 = new TextDecoder('latin1');

/** RFC 9460 Appendix A.1: split on unescaped commas; `\X` stands for X (`\,` `\\`). */
function splitValueList(value: Uint8Array): Uint8Array[] {
  const items: Uint8Array[] = [];
  let current: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c === 0x5c && i + 1 < value.length) {
      current.push(value[++i]!);
    } else if (c === 0x2c) {
      items.push(Uint8Array.from(current));
      current = [];
    } else {
      current.push(c);
    }
  }
  items.push(Uint8Array.from(current));
  return items;
}

function joinValueList(items: readonly Uint8Array[]): Uint8Array {
  const out: number[] = [];
  items.forEach((item, i) => {
    if (i > 0) out.push(0x2c);
    for (const c of item) {
      if (c === 0x2c || c === 0x5c) out.push(0x5c);
      out.push(c);
    }
  });
  return Uint8Array.from(out);
}

function plainList(typeName: string, key: number, value: Uint8Array): string[] {
  const items = latin1.decode(value).split(',');
  if (items.some((s) => s === '')) throw fail(typeName, key, 'has an empty item in its list');
  return items;
}

/** Wire value of a key from its decoded presentation value (null when written without `=`). */
export function svcValueToWire(typeName: string, key: number, value: Uint8Array | null): Uint8Array {
  const needsValue = key !== SVC_KEY['no-default-alpn'] && key !== SVC_KEY.ohttp && KEY_BY_NUMBER.has(key);
  if (value === null || value.length === 0) {
    if (needsValue) throw fail(typeName, key, 'needs a value');
    return new Uint8Array(0);
  }
  switch (key) {
    case SVC_KEY.mandatory: {
      const keys = plainList(typeName, key, value).map((name) => {
        const k = svcKeyFromText(name);
        if (k === null) throw fail(typeName, key, `lists an unknown key "${name}"`);
        return k;
      });
      if (keys.includes(SVC_KEY.mandatory)) throw fail(typeName, key, 'must not list "mandatory" itself');
      if (new Set(keys).size !== keys.length) throw fail(typeName, key, 'lists a key more than once');
      keys.sort((a, b) => a - b);
      return Uint8Array.from(keys.flatMap((k) => [k >>> 8, k & 0xff]));
    }
    case SVC_KEY.alpn: {
      const out: number[] = [];
      for (const id of splitValueList(value)) {
        if (id.length === 0 || id.length > MAX_ALPN_ID_OCTETS) {
          throw fail(typeName, key, 'protocol identifiers must be 1 to 255 octets');
        }
        out.push(id.length, ...id);
      }
      return Uint8Array.from(out);
    }
    case SVC_KEY['no-default-alpn']:
    case SVC_KEY.ohttp:
      throw fail(typeName, key, 'takes no value');
    case SVC_KEY.port: {
      const text = latin1.decode(value);
      if (!/^[0-9]{1,5}$/.test(text) || Number(text) > 0xffff) {
        throw fail(typeName, key, `must be an integer from 0 to 65535, got "${text}"`);
      }
      return Uint8Array.from([Number(text) >>> 8, Number(text) & 0xff]);
    }
    case SVC_KEY.ipv4hint:
    case SVC_KEY.ipv6hint: {
      const v4 = key === SVC_KEY.ipv4hint;
      const out: number[] = [];
      for (const item of plainList(typeName, key, value)) {
        const bytes = v4 ? ipv4ToBytes(item) : ipv6ToBytes(item);
        if (bytes === null) throw fail(typeName, key, `has an invalid IPv${v4 ? 4 : 6} address "${item}"`);
        out.push(...bytes);
      }
      return Uint8Array.from(out);
    }
    case SVC_KEY.ech: {
      const bytes = base64ToBytes(latin1.decode(value));
      if (bytes === null || bytes.length === 0) throw fail(typeName, key, 'must be base64');
      return bytes;
    }
    default:
      return value;
  }
}

function addressList(typeName: string, key: number, wire: Uint8Array, size: number): string {
  if (wire.length === 0 || wire.length % size !== 0) {
    throw fail(typeName, key, `data must be a non-empty multiple of ${size} octets`);
  }
  const out: string[] = [];
  for (let i = 0; i < wire.length; i += size) {
    const a = wire.subarray(i, i + size);
    out.push(size === IPV4_OCTETS ? bytesToIpv4(a) : bytesToIpv6(a));
  }
  return out.join(',');
}

/** Decoded presentation octets of a wire value (before master-file escaping); null for no value. */
function svcValueOctets(typeName: string, key: number, wire: Uint8Array): Uint8Array | string | null {
  switch (key) {
    case SVC_KEY.mandatory: {
      if (wire.length === 0 || wire.length % 2 !== 0)
        throw fail(typeName, key, 'data must be a list of keys');
      const keys: number[] = [];
      for (let i = 0; i < wire.length; i += 2) keys.push((wire[i]! << 8) | wire[i + 1]!);
      if (keys.some((k, i) => k === SVC_KEY.mandatory || (i > 0 && k <= keys[i - 1]!))) {
        throw fail(typeName, key, 'keys must be in strictly increasing order and not include mandatory');
      }
      return keys.map(svcKeyToText).join(',');
    }
    case SVC_KEY.alpn: {
      const ids: Uint8Array[] = [];
      for (let i = 0; i < wire.length;) {
        const len = wire[i]!;
        if (len === 0 || i + 1 + len > wire.length) throw fail(typeName, key, 'data is malformed');
        ids.push(wire.subarray(i + 1, i + 1 + len));
        i += 1 + len;
      }
      if (ids.length === 0) throw fail(typeName, key, 'data is empty');
      return joinValueList(ids);
    }
    case SVC_KEY['no-default-alpn']:
    case SVC_KEY.ohttp:
      if (wire.length !== 0) throw fail(typeName, key, 'must have an empty value');
      return null;
    case SVC_KEY.port:
      if (wire.length !== 2) throw fail(typeName, key, 'data must be 2 octets');
      return String((wire[0]! << 8) | wire[1]!);
    case SVC_KEY.ipv4hint:
      return addressList(typeName, key, wire, IPV4_OCTETS);
    case SVC_KEY.ipv6hint:
      return addressList(typeName, key, wire, IPV6_OCTETS);
    case SVC_KEY.ech:
      if (wire.length === 0) throw fail(typeName, key, 'data is empty');
      return bytesToBase64(wire);
    default:
      if (wire.length === 0 && KEY_BY_NUMBER.has(key)) throw fail(typeName, key, 'data is empty');
      return wire.length === 0 ? null : wire;
  }
}

/** Characters that would end or alter an unquoted value. */
const NEEDS_QUOTES = /[\s"\\;()]/;

/** `key` or `key=value`, quoting the value only when it needs escapes or holds spaces. */
export function svcParamToText(typeName: string, key: number, wire: Uint8Array): string {
  const value = svcValueOctets(typeName, key, wire);
  const name = svcKeyToText(key);
  if (value === null) return name;
  if (typeof value === 'string') return `${name}=${value}`;
  const text = escapeOctets(value);
  return NEEDS_QUOTES.test(text) || text.length === 0 ? `${name}="${text}"` : `${name}=${text}`;
}
