/**
 * SVCB and HTTPS records (RFC 9460 §2): SvcPriority, TargetName, SvcParams. Priority 0 is AliasMode
 * and carries no SvcParams here (RFC 9460 §2.4.2 says they SHOULD NOT appear; we refuse them so that
 * nothing is served that clients must ignore). Keys are written in increasing order on the wire
 * (RFC 9460 §2.2), whatever their order in the presentation form.
 */
import { nameToText } from '../name-text.ts';
import type { Token } from './rdata-token-reader.ts';
import type { RdataCodec } from './rdata-codec-interface.ts';
import { RdataError } from './rdata-error.ts';
import { decodeEscapes, tokenOctets } from './rdata-string-text.ts';
import {
  INVALID_SVC_KEY,
  SVC_KEY,
  svcKeyFromText,
  svcKeyToText,
  svcParamToText,
  svcValueToWire,
} from './rdata-svcb-params.ts';
import { RdataReader } from './rdata-wire-reader.ts';
import { RdataWriter } from './rdata-wire-writer.ts';

const MAX_UINT16 = 0xffff;
const ALIAS_MODE_PRIORITY = 0;

interface Param {
  key: number;
  value: Uint8Array;
}

/** Splits `key=value` / `key="value"` / `key` (RFC 9460 §2.1) and decodes the value's escapes. */
function readParam(typeName: string, token: Token): { key: number; value: Uint8Array | null } {
  if (token.quoted) {
    throw new RdataError(
      'params',
      `${typeName} has a quoted string "${token.text}" where a key=value parameter was expected (no spaces around "=")`,
    );
  }
  const eq = token.text.indexOf('=');
  const keyText = eq === -1 ? token.text : token.text.slice(0, eq);
  const key = svcKeyFromText(keyText);
  if (key === null) throw new RdataError('params', `${typeName} has an unknown SvcParamKey "${keyText}"`);
  if (eq === -1) return { key, value: null };
  const raw = token.text.slice(eq + 1);
  const what = `${typeName} ${svcKeyToText(key)} value`;
  if (raw.startsWith('"')) {
    const inner = raw.slice(1, -1);
    if (raw.length < 2 || !raw.endsWith('"') || /(^|[^\\])(\\\\)*"/.test(inner)) {
      throw new RdataError('params', `${what} has unbalanced quotes`);
    }
    return { key, value: decodeEscapes(inner, 'params', what) };
  }
  return { key, value: tokenOctets({ text: raw, quoted: false }, 'params', what) };
}

/** Cross-parameter rules of RFC 9460 §8 (mandatory) and §7.1.1 (no-default-alpn needs alpn). */
function checkParams(typeName: string, priority: number, params: readonly Param[]): void {
  if (priority === ALIAS_MODE_PRIORITY && params.length > 0) {
    throw new RdataError('params', `${typeName} in AliasMode (priority 0) must not have SvcParams`);
  }
  const keys = new Set(params.map((p) => p.key));
  const mandatory = params.find((p) => p.key === SVC_KEY.mandatory);
  if (mandatory !== undefined) {
    for (let i = 0; i + 1 < mandatory.value.length; i += 2) {
      const k = (mandatory.value[i]! << 8) | mandatory.value[i + 1]!;
      if (!keys.has(k)) {
        throw new RdataError(
          'params',
          `${typeName} mandatory lists ${svcKeyToText(k)}, which is not present`,
        );
      }
    }
  }
  if (keys.has(SVC_KEY['no-default-alpn']) && !keys.has(SVC_KEY.alpn)) {
    throw new RdataError('params', `${typeName} no-default-alpn requires alpn to be present`);
  }
}

export function svcbCodec(typeName: string): RdataCodec {
  return {
    parse(r) {
      const priority = r.int('priority', 'priority', MAX_UINT16);
      const target = r.name('target', 'target name');
      const params: Param[] = [];
      for (const token of r.rest()) {
        const { key, value } = readParam(typeName, token);
        if (params.some((p) => p.key === key)) {
          throw new RdataError('params', `${typeName} has the key ${svcKeyToText(key)} more than once`);
        }
        params.push({ key, value: svcValueToWire(typeName, key, value) });
      }
      params.sort((a, b) => a.key - b.key);
      checkParams(typeName, priority, params);
      const w = new RdataWriter(typeName).u16(priority).name(target);
      for (const p of params) {
        if (p.value.length > MAX_UINT16) {
          throw new RdataError('params', `${typeName} ${svcKeyToText(p.key)} value is too long`);
        }
        w.u16(p.key).u16(p.value.length).raw(p.value);
      }
      return w.finish();
    },
    format(rdata) {
      const d = new RdataReader(typeName, rdata);
      const priority = d.u16();
      const target = d.name();
      const params: Param[] = [];
      while (d.remaining > 0) {
        const key = d.u16();
        if (key === INVALID_SVC_KEY)
          throw new RdataError('params', `${typeName} data uses the reserved key 65535`);
        const value = d.bytes(d.u16());
        const last = params[params.length - 1];
        if (last !== undefined && key <= last.key) {
          throw new RdataError('params', `${typeName} data has keys out of order or repeated`);
        }
        params.push({ key, value });
      }
      checkParams(typeName, priority, params);
      const parts = [String(priority), nameToText(target)];
      for (const p of params) parts.push(svcParamToText(typeName, p.key, p.value));
      return parts.join(' ');
    },
  };
}
