import { RdataError, formatRdata, parseRdataText, typeFromText, typeToText } from '../../../dns/index.ts';
import { invalidFields, type ValidationProblem } from '../../../kernel/errors/app-error.ts';
import { resolveRecordName } from '../shared/record-name.ts';
import { typeRefusal } from '../shared/record-types.ts';
import type { NewRecord } from './records-repository.ts';
import { plainTxtRdata } from './txt-content.ts';

export interface RecordBody {
  name: string;
  type: string;
  content: string;
  ttl?: number;
}

/**
 * A record as the API receives it → the stored record: FQDN owner, upper-case type mnemonic,
 * RDATA parsed and validated for its type (names in it completed with the zone's origin) and
 * written back in canonical presentation form (TXT content without quotes is one string:
 * txt-content.ts). Every bad field is reported at once (422).
 */
export function prepareRecord(domain: string, defaultTtl: number, body: RecordBody): NewRecord {
  const problems: ValidationProblem[] = [];
  const problem = (field: string, msg: string, input: unknown) =>
    problems.push({ type: 'value_error', loc: ['body', field], msg, input, ctx: {} });

  const name = resolveRecordName(body.name, domain);
  if (!name.ok) problem('name', name.reason, body.name);

  const typeCode = typeFromText(body.type.trim());
  if (typeCode === null) problem('type', `Unknown record type: ${body.type}`, body.type);
  else if (name.ok) {
    const refusal = typeRefusal(typeCode, name.name, domain);
    if (refusal !== null) problem('type', refusal, body.type);
  }

  let rdata: Uint8Array | null = null;
  if (typeCode !== null && problems.length === 0) {
    try {
      rdata = plainTxtRdata(typeCode, body.content) ?? parseRdataText(typeCode, body.content, domain);
    } catch (error) {
      if (!(error instanceof RdataError)) throw error;
      problem('content', error.message, body.content);
    }
  }
  if (problems.length > 0 || !name.ok || typeCode === null || rdata === null) throw invalidFields(problems);
  return {
    name: name.name,
    type: typeToText(typeCode),
    type_code: typeCode,
    content: formatRdata(typeCode, rdata),
    rdata,
    ttl: body.ttl ?? defaultTtl,
  };
}
