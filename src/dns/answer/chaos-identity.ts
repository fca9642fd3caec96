import { CLASS_CH } from '../wire/message/message-constants.ts';
import { encodeRRset, type RRset } from '../wire/rrset-encoding.ts';
import { RR_TYPE } from '../wire/rr-type.ts';

/**
 * What a server tells of itself in class CHAOS (RFC 4892 §2): `id.server` and `hostname.bind` its
 * identity, `version.server` and `version.bind` its version. Each answer is a TXT record in class
 * CH with TTL 0, encoded once; an empty setting answers nothing (REFUSED, as Knot with
 * `identity: ""`).
 */
export interface ChaosIdentity {
  /** Lower-cased query name in wire form → its answer. */
  readonly answers: ReadonlyMap<string, RRset>;
}

/** `text` as one TXT RRset in class CH (strings of at most 255 octets). */
function chaosTxt(text: string): RRset {
  const bytes = new TextEncoder().encode(text).subarray(0, 255);
  const rdata = new Uint8Array(bytes.length + 1);
  rdata[0] = bytes.length;
  rdata.set(bytes, 1);
  const rrset = encodeRRset(RR_TYPE.TXT, 0, [rdata]);
  // The encoding is made for class IN: CHAOS answers carry class CH (RFC 1035 §3.2.4).
  rrset.data[rrset.start + 2] = CLASS_CH >>> 8;
  rrset.data[rrset.start + 3] = CLASS_CH & 0xff;
  return rrset;
}

/** Wire form of a name, lower case, as the query parser keeps the question (`name.lower`). */
function wire(name: string): string {
  return name
    .split('.')
    .map((l) => String.fromCharCode(l.length) + l)
    .join('')
    .concat('\0');
}

export function chaosIdentity(identity: string, version: string): ChaosIdentity {
  const answers = new Map<string, RRset>();
  if (identity !== '') {
    const rr = chaosTxt(identity);
    answers.set(wire('id.server'), rr);
    answers.set(wire('hostname.bind'), rr);
  }
  if (version !== '') {
    const rr = chaosTxt(version);
    answers.set(wire('version.server'), rr);
    answers.set(wire('version.bind'), rr);
  }
  return { answers };
}
