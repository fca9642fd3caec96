import { RR_TYPE } from '../../../dns/index.ts';

/** RFC 1035 §3.3: a <character-string> holds at most 255 octets. */
const MAX_STRING = 255;

/**
 * TXT content as users paste it. Content that does not start with a double quote is one string,
 * whatever its spaces (`v=spf1 include:_spf.example.net ~all` stays one SPF string), cut into
 * 255-octet pieces when longer, as Cloudflare's API does; content that starts with `"` keeps the
 * presentation form of RFC 1035 §5.1 (several quoted strings, escapes). Answers the RDATA of the
 * plain form, or null for the quoted form (parsed as a zone file line would be).
 */
export function plainTxtRdata(type: number, content: string): Uint8Array | null {
  if (type !== RR_TYPE.TXT || content.trimStart().startsWith('"')) return null;
  const text = new TextEncoder().encode(content);
  const pieces = Math.max(1, Math.ceil(text.length / MAX_STRING));
  const rdata = new Uint8Array(text.length + pieces);
  let at = 0;
  for (let i = 0; i < pieces; i++) {
    const piece = text.subarray(i * MAX_STRING, (i + 1) * MAX_STRING);
    rdata[at++] = piece.length;
    rdata.set(piece, at);
    at += piece.length;
  }
  return rdata;
}
