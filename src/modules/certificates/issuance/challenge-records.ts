import type { ManagedRecords } from '../../dns/index.ts';
import { challengeRecordName } from '../shared/certificate-names.ts';
import type { CertificatesRepository } from '../shared/certificates-repository.ts';

export const CERTIFICATES_MODULE = 'certificates';
/** Short, so a value withdrawn is soon forgotten by resolvers (and by the CA's). */
const CHALLENGE_TTL = 60;

/**
 * The dns-01 TXT records (`_acme-challenge.<name>`) of orders in progress, published in our own
 * zones as managed records of this module: users see them but cannot edit or delete them. Several
 * orders may validate the same name at once (a wildcard and its apex, two certificates): the
 * record set at a name is always the union of the values of every order that still needs it.
 */
export class ChallengeRecords {
  constructor(
    private readonly records: ManagedRecords,
    private readonly repo: CertificatesRepository,
  ) {}

  /** Publishes (or withdraws) at each identifier what the orders in progress need there. */
  async sync(zoneId: number, identifiers: readonly string[]): Promise<void> {
    for (const identifier of new Set(identifiers)) {
      const values = new Set<string>();
      for (const cert of await this.repo.publishedAt(identifier)) {
        if (cert.zone_id === null || Number(cert.zone_id) !== zoneId) continue;
        for (const c of cert.challenges ?? []) {
          if (c.type === 'dns-01' && c.identifier === identifier) values.add(c.value);
        }
      }
      const name = challengeRecordName(identifier);
      if (values.size === 0) await this.records.remove(CERTIFICATES_MODULE, zoneId, name, 'TXT');
      else
        await this.records.put(
          CERTIFICATES_MODULE,
          zoneId,
          [...values].sort().map((v) => ({ name, type: 'TXT', content: `"${v}"`, ttl: CHALLENGE_TTL })),
        );
    }
  }
}
