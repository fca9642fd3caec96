import { Resolver } from 'node:dns/promises';
import type { DomainRecord, RecordPurpose } from './domain-records.ts';

/**
 * Looks a sending domain's records up through MAIL_CHECK_RESOLVER (the system resolver when
 * unset): the DKIM TXT must hold our key (joined strings, RFC 6376 §3.6.2.2), an SPF TXT at the
 * domain (`v=spf1`, RFC 7208 §4.5) must include ours, the return-path CNAME must point at the
 * bounce domain. A lookup that fails counts as not found.
 */
export async function checkRecords(
  server: string | null,
  records: readonly DomainRecord[],
  spfInclude: string,
): Promise<Record<RecordPurpose, boolean>> {
  const resolver = new Resolver({ timeout: 2000, tries: 2 });
  if (server !== null) resolver.setServers([server]);
  const txt = async (name: string): Promise<string[]> =>
    (await resolver.resolveTxt(name).catch(() => [] as string[][])).map((chunks) => chunks.join(''));
  const out: Record<RecordPurpose, boolean> = { dkim: false, spf: false, return_path: false };
  for (const r of records) {
    if (r.purpose === 'dkim') {
      const key = /p=([A-Za-z0-9+/=]+)/.exec(r.value)?.[1];
      out.dkim = (await txt(r.name)).some(
        (v) => key !== undefined && v.replace(/\s+/g, '').includes(`p=${key}`),
      );
    } else if (r.purpose === 'spf') {
      const spf = (await txt(r.name)).filter((v) => /^v=spf1(\s|$)/i.test(v));
      out.spf =
        spf.length === 1 &&
        spf[0]!.toLowerCase().split(/\s+/).includes(`include:${spfInclude.toLowerCase()}`);
    } else {
      const targets = await resolver.resolveCname(r.name).catch(() => [] as string[]);
      out.return_path = targets.some((t) => t.toLowerCase().replace(/\.$/, '') === r.value);
    }
  }
  return out;
}
