import { Resolver } from 'node:dns/promises';
import type { DomainRecord, RecordPurpose } from './domain-records.ts';
import { spfReason } from './spf-record.ts';

/**
 * Looks a sending domain's records up through MAIL_CHECK_RESOLVER (the system resolver when
 * unset): the DKIM TXT must hold our key (joined strings, RFC 6376 §3.6.2.2), an SPF TXT at the
 * domain (`v=spf1`, RFC 7208 §4.5) must be the only one, valid, and include ours (else
 * `spf_reason` says why), the return-path CNAME must point at the bounce domain. A lookup that
 * fails counts as not found.
 */
export async function checkRecords(
  server: string | null,
  records: readonly DomainRecord[],
  spfInclude: string,
): Promise<Record<RecordPurpose, boolean> & { spf_reason: string | null }> {
  const resolver = new Resolver({ timeout: 2000, tries: 2 });
  if (server !== null) resolver.setServers([server]);
  const txt = async (name: string): Promise<string[]> =>
    (await resolver.resolveTxt(name).catch(() => [] as string[][])).map((chunks) => chunks.join(''));
  const out: Record<RecordPurpose, boolean> & { spf_reason: string | null } = {
    dkim: false,
    spf: false,
    return_path: false,
    spf_reason: null,
  };
  for (const r of records) {
    if (r.purpose === 'dkim') {
      const key = /p=([A-Za-z0-9+/=]+)/.exec(r.value)?.[1];
      out.dkim = (await txt(r.name)).some(
        (v) => key !== undefined && v.replace(/\s+/g, '').includes(`p=${key}`),
      );
    } else if (r.purpose === 'spf') {
      out.spf_reason = spfReason(await txt(r.name), spfInclude);
      out.spf = out.spf_reason === null;
    } else {
      const targets = await resolver.resolveCname(r.name).catch(() => [] as string[]);
      out.return_path = targets.some((t) => t.toLowerCase().replace(/\.$/, '') === r.value);
    }
  }
  return out;
}
