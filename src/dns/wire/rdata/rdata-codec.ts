/**
 * The RDATA registry: presentation ↔ wire for every type we know, the RFC 3597 generic form for all
 * types, and `\# len hex` output for the types we do not know.
 */
import { RR_TYPE, isMetaType, typeToText } from '../rr-type.ts';
import { NameTextError, parseStoredName } from '../name-text.ts';
import { aCodec, aaaaCodec } from './rdata-address.ts';
import { caaCodec } from './rdata-caa.ts';
import type { RdataCodec } from './rdata-codec-interface.ts';
import { dsCodec, sshfpCodec, tlsaCodec } from './rdata-digest.ts';
import { dnskeyCodec } from './rdata-dnskey.ts';
import { cnameCodec, dnameCodec, nsCodec, ptrCodec } from './rdata-domain.ts';
import { RdataError } from './rdata-error.ts';
import { formatGenericRdata, isGenericRdata, parseGenericRdata } from './rdata-generic.ts';
import { hinfoCodec } from './rdata-hinfo.ts';
import { mxCodec } from './rdata-mx.ts';
import { naptrCodec } from './rdata-naptr.ts';
import { nsec3Codec, nsec3paramCodec, nsecCodec } from './rdata-nsec.ts';
import { rrsigCodec } from './rdata-rrsig.ts';
import { soaCodec } from './rdata-soa.ts';
import { srvCodec } from './rdata-srv.ts';
import { svcbCodec } from './rdata-svcb.ts';
import { RdataTokenReader, type Token } from './rdata-token-reader.ts';
import { txtCodec } from './rdata-txt.ts';

export { RdataError } from './rdata-error.ts';

const CODECS: ReadonlyMap<number, RdataCodec> = new Map<number, RdataCodec>([
  [RR_TYPE.A, aCodec],
  [RR_TYPE.NS, nsCodec],
  [RR_TYPE.CNAME, cnameCodec],
  [RR_TYPE.SOA, soaCodec],
  [RR_TYPE.PTR, ptrCodec],
  [RR_TYPE.HINFO, hinfoCodec],
  [RR_TYPE.MX, mxCodec],
  [RR_TYPE.TXT, txtCodec],
  [RR_TYPE.AAAA, aaaaCodec],
  [RR_TYPE.SRV, srvCodec],
  [RR_TYPE.NAPTR, naptrCodec],
  [RR_TYPE.DNAME, dnameCodec],
  [RR_TYPE.DS, dsCodec('DS')],
  [RR_TYPE.SSHFP, sshfpCodec],
  [RR_TYPE.RRSIG, rrsigCodec],
  [RR_TYPE.NSEC, nsecCodec],
  [RR_TYPE.DNSKEY, dnskeyCodec('DNSKEY')],
  [RR_TYPE.NSEC3, nsec3Codec],
  [RR_TYPE.NSEC3PARAM, nsec3paramCodec],
  [RR_TYPE.TLSA, tlsaCodec],
  [RR_TYPE.CDS, dsCodec('CDS')],
  [RR_TYPE.CDNSKEY, dnskeyCodec('CDNSKEY')],
  [RR_TYPE.SVCB, svcbCodec('SVCB')],
  [RR_TYPE.HTTPS, svcbCodec('HTTPS')],
  [RR_TYPE.CAA, caaCodec],
]);

const MAX_TYPE = 0xffff;

/** Whether we have a type-specific presentation format (others use RFC 3597 `\\#` only). */
export function hasRdataCodec(type: number): boolean {
  return CODECS.has(type);
}

function checkType(type: number): string {
  if (!Number.isInteger(type) || type < 0 || type > MAX_TYPE) {
    throw new RdataError('type', `type ${type} is not a 16-bit RR type`);
  }
  const typeName = typeToText(type);
  if (isMetaType(type)) throw new RdataError('type', `type ${typeName} cannot be used in zone data`);
  return typeName;
}

function originLabels(origin: string): Uint8Array[] {
  try {
    return parseStoredName(origin);
  } catch (e) {
    if (e instanceof NameTextError) throw new RdataError('origin', `invalid origin: ${e.message}`);
    throw e;
  }
}

/**
 * Wire RDATA from presentation tokens (see Token for how escapes arrive). `origin`
 * is the stored-form name that relative names in the data are completed with.
 */
export function parseRdata(type: number, tokens: readonly Token[], origin: string): Uint8Array {
  return parseRdataWith(type, tokens, () => originLabels(origin));
}

/**
 * parseRdata with the origin already as labels: zone files parse a hundred thousand records
 * against one origin, and re-parsing its text for each was a measurable share of an import.
 */
export function parseRdataAt(
  type: number,
  tokens: readonly Token[],
  origin: readonly Uint8Array[],
): Uint8Array {
  return parseRdataWith(type, tokens, () => origin);
}

function parseRdataWith(
  type: number,
  tokens: readonly Token[],
  origin: () => readonly Uint8Array[],
): Uint8Array {
  const typeName = checkType(type);
  const codec = CODECS.get(type);
  if (isGenericRdata(tokens)) {
    const rdata = parseGenericRdata(typeName, tokens);
    // RFC 3597 §5: the generic form of a known type must still be valid data of that type.
    if (codec !== undefined) {
      try {
        codec.format(rdata);
      } catch (e) {
        if (e instanceof RdataError) {
          throw new RdataError(
            e.field,
            `${typeName} generic data (\\#) is not valid ${typeName} data: ${e.message}`,
          );
        }
        throw e;
      }
    }
    return rdata;
  }
  if (codec === undefined) {
    throw new RdataError(
      'rdata',
      `type ${typeName} can only be written in the generic form \\# <length> <hex> (RFC 3597)`,
    );
  }
  return codec.parse(new RdataTokenReader(typeName, tokens, origin()));
}

/**
 * Canonical presentation form. Data that is not valid for its type (never produced by parseRdata)
 * is shown in the generic form rather than thrown, so that displays never fail.
 */
export function formatRdata(type: number, rdata: Uint8Array): string {
  const codec = CODECS.get(type);
  if (codec !== undefined) {
    try {
      return codec.format(rdata);
    } catch (e) {
      if (!(e instanceof RdataError)) throw e;
    }
  }
  return formatGenericRdata(rdata);
}
