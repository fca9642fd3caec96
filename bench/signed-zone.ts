import { DNSKEY_FLAGS_KSK, DNSKEY_FLAGS_ZSK, generateDnssecKey } from '../src/dns/index.ts';
import type { ZoneData } from '../src/dns/index.ts';
import { ORIGIN } from './handle-message.bench.ts';

const TYPE_DNSKEY = 48;

/** The same zone signed online: DNSKEYs at the apex and the KSK/ZSK material (ECDSA P-256). */
export function withSigning(data: ZoneData): ZoneData {
  const ksk = generateDnssecKey(13, 'ksk');
  const zsk = generateDnssecKey(13, 'zsk');
  if (ksk.flags !== DNSKEY_FLAGS_KSK || zsk.flags !== DNSKEY_FLAGS_ZSK) throw new Error('key flags');
  const dnskeys = [ksk, zsk].map((k) => ({ name: ORIGIN, type: TYPE_DNSKEY, ttl: 3600, rdata: k.dnskey }));
  return {
    ...data,
    records: [...data.records, ...dnskeys],
    dnssec: {
      algorithm: 13,
      ksk: { algorithm: 13, keyTag: ksk.keyTag, privateKeyPkcs8: ksk.privateKeyPkcs8 },
      zsk: { algorithm: 13, keyTag: zsk.keyTag, privateKeyPkcs8: zsk.privateKeyPkcs8 },
      nsecTtl: 300,
    },
  };
}
