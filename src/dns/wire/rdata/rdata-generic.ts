/** The RFC 3597 §5 generic RDATA form `\# <length> <hex>`, accepted for every type. */
import type { Token } from './rdata-token-reader.ts';
import { bytesToHex, hexToBytes } from './rdata-binary-text.ts';
import { RdataError } from './rdata-error.ts';
import { MAX_RDATA_OCTETS } from './rdata-wire-writer.ts';

const DECIMAL = /^[0-9]+$/;

/** Whether the tokens start with the unquoted `\#` marker. */
export function isGenericRdata(tokens: readonly Token[]): boolean {
  const first = tokens[0];
  return first !== undefined && !first.quoted && first.text === '\\#';
}

export function parseGenericRdata(typeName: string, tokens: readonly Token[]): Uint8Array {
  const lengthToken = tokens[1];
  if (lengthToken === undefined) {
    throw new RdataError('length', `${typeName} generic data (\\#) is missing the length`);
  }
  const length = Number(lengthToken.text);
  if (!DECIMAL.test(lengthToken.text) || length > MAX_RDATA_OCTETS) {
    throw new RdataError(
      'length',
      `${typeName} generic data length must be an integer from 0 to ${MAX_RDATA_OCTETS}, got "${lengthToken.text}"`,
    );
  }
  const hex = tokens
    .slice(2)
    .map((t) => t.text)
    .join('');
  const bytes = hexToBytes(hex);
  if (bytes === null) {
    throw new RdataError(
      'data',
      `${typeName} generic data must be an even number of hex digits, got "${hex}"`,
    );
  }
  if (bytes.length !== length) {
    throw new RdataError(
      'data',
      `${typeName} generic data has ${bytes.length} octets of hex but declares a length of ${length}`,
    );
  }
  return bytes;
}

/** RFC 3597 §5: a zero length is written without any hex. */
export function formatGenericRdata(rdata: Uint8Array): string {
  return rdata.length === 0 ? '\\# 0' : `\\# ${rdata.length} ${bytesToHex(rdata)}`;
}
