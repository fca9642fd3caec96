import { dkimRecordText } from './dkim-key.ts';

export type RecordPurpose = 'dkim' | 'spf' | 'return_path';

/** A record a sending domain needs, as the user publishes it (value unquoted, whole). */
export interface DomainRecord {
  readonly purpose: RecordPurpose;
  readonly name: string;
  readonly type: 'TXT' | 'CNAME';
  readonly value: string;
}

/**
 * The three records of a sending domain: the DKIM key at `<selector>._domainkey`
 * (RFC 6376 §3.6.2.1), SPF at the domain allowing the relay's senders (RFC 7208 §5.2 include), and
 * the return-path name `bounces.<domain>` pointing at the bounce domain, so that a domain that
 * wants an aligned envelope sender has the name ready (reported, not required: the relay's
 * return path is on the bounce domain itself).
 */
export function domainRecords(
  domain: string,
  selector: string,
  publicKeyBase64: string,
  settings: { readonly spfInclude: string; readonly bounceDomain: string },
): DomainRecord[] {
  return [
    {
      purpose: 'dkim',
      name: `${selector}._domainkey.${domain}`,
      type: 'TXT',
      value: dkimRecordText(publicKeyBase64),
    },
    { purpose: 'spf', name: domain, type: 'TXT', value: `v=spf1 include:${settings.spfInclude} ~all` },
    { purpose: 'return_path', name: `bounces.${domain}`, type: 'CNAME', value: settings.bounceDomain },
  ];
}
