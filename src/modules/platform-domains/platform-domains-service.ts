import { Resolver } from 'node:dns/promises';
import { invalidField } from '../../kernel/errors/app-error.ts';
import type { JsonView } from '../../kernel/http/view-schemas.ts';
import type { Certificates } from '../certificates/index.ts';
import type { HostedZone, ManagedRecords, ManagedZones } from '../dns/index.ts';
import { checkLabel, type LabelProblem } from './claim-label.ts';
import { ClaimsRepository } from './claims-repository.ts';
import type { PlatformDomainsContext } from './platform-domains-context.ts';
import {
  CLAIM_LIMIT,
  claimLimitReached,
  claimNotFound,
  nameTaken,
  notDelegated,
} from './platform-domains-errors.ts';
import type { Claim } from './platform-domains-tables.ts';

export const MODULE = 'platform-domains';
const NS_TTL = 3600;

/** A claim as the API shows it: its row without the account and bookkeeping, with its name and certificate. */
export type ClaimView = JsonView<Omit<Claim, 'user_id' | 'certificate_requested_at'>> & {
  fqdn: string;
  /** The wildcard certificate's status, or `waiting_for_delegation` before it could be asked for. */
  certificate_status: string;
};

export interface AvailabilityView {
  label: string;
  suffix: string;
  available: boolean;
  reason: Exclude<LabelProblem, null> | 'taken' | null;
}

export interface OverviewView {
  suffixes: { suffix: string; delegated: boolean }[];
  claims: ClaimView[];
  limit: number;
}

/**
 * Names under the platform's suffixes: each claim gets a zone of its own, owned by the account and
 * delegated from the suffix zone by NS records, and a wildcard certificate by DNS-01 in it.
 */
export class PlatformDomainsService {
  private readonly repo: ClaimsRepository;
  private readonly suffixZones = new Map<string, HostedZone>();

  constructor(
    private readonly ctx: PlatformDomainsContext,
    private readonly deps: {
      readonly zones: ManagedZones;
      readonly records: ManagedRecords;
      readonly certificates: Certificates;
      readonly nameservers: readonly string[];
    },
  ) {
    this.repo = new ClaimsRepository(ctx.db);
  }

  /** Creates the suffix zones that are missing (at start). */
  async ensureSuffixZones(): Promise<void> {
    for (const suffix of this.ctx.settings.suffixes) {
      const zone = await this.deps.zones.ensurePlatformZone(MODULE, suffix);
      if (zone === null) {
        this.ctx.log.error({ suffix }, 'platform domain suffix is a zone of an account: not offered');
      } else this.suffixZones.set(suffix, zone);
    }
  }

  async overview(userId: number): Promise<OverviewView> {
    const suffixes = await Promise.all(
      [...this.suffixZones.keys()].map(async (suffix) => ({
        suffix,
        delegated: await this.delegated(suffix),
      })),
    );
    const claims = await Promise.all((await this.repo.listOf(userId)).map((c) => this.view(c)));
    return { suffixes, claims, limit: CLAIM_LIMIT };
  }

  async availability(labelInput: string, suffixInput: string | null | undefined): Promise<AvailabilityView> {
    const label = labelInput.trim().toLowerCase();
    const suffix = this.suffix(suffixInput, ['query', 'suffix']);
    const problem = checkLabel(label);
    const reason = problem ?? ((await this.repo.exists(label, suffix)) ? 'taken' : null);
    return { label, suffix, available: reason === null, reason };
  }

  async claim(
    userId: number,
    labelInput: string,
    suffixInput: string | null | undefined,
  ): Promise<ClaimView> {
    const label = labelInput.trim().toLowerCase();
    const suffix = this.suffix(suffixInput, ['body', 'suffix']);
    const problem = checkLabel(label);
    if (problem !== null) {
      throw invalidField(
        ['body', 'label'],
        problem === 'reserved'
          ? `"${label}" is reserved`
          : 'A label is 3 to 63 characters of a-z, 0-9 and inner hyphens',
        labelInput,
      );
    }
    const claim = await this.ctx.transaction(async (uow) => {
      const repo = this.repo.withTx(uow.trx);
      // One claim at a time per account, so the limit holds when two arrive together.
      await repo.lockClaimsOf(userId);
      if ((await repo.listOf(userId)).length >= CLAIM_LIMIT) throw claimLimitReached();
      const row = await repo.insert({
        user_id: userId,
        label,
        suffix,
        zone_id: null,
        certificate_requested_at: null,
        created_at: new Date(this.ctx.clock.now()),
      });
      if (row === null) throw nameTaken();
      return row;
    });
    const fqdn = `${label}.${suffix}`;
    try {
      const zone = await this.deps.zones.createDelegatedZone(MODULE, { userId }, fqdn);
      await this.repo.update(claim.id, { zone_id: zone.zoneId });
      claim.zone_id = zone.zoneId;
      await this.deps.records.put(
        MODULE,
        this.suffixZones.get(suffix)!.zoneId,
        this.deps.nameservers.map((ns) => ({ name: label, type: 'NS', content: `${ns}.`, ttl: NS_TTL })),
      );
    } catch (error) {
      await this.undo(claim);
      if ((error as { status?: number }).status === 409) throw nameTaken();
      throw error;
    }
    try {
      await this.requestCertificate(claim, false);
    } catch (error) {
      // The claim stands (a certificate limit, say): POST /claims/{id}/certificate asks again.
      this.ctx.log.warn({ err: error, claim: claim.id }, 'wildcard certificate not requested');
      await this.repo.update(claim.id, { certificate_requested_at: new Date(this.ctx.clock.now()) });
    }
    return this.view((await this.repo.find(userId, claim.id))!);
  }

  /** POST /claims/{id}/certificate: asks for the wildcard certificate again (202). */
  async certificate(userId: number, claimId: number): Promise<ClaimView> {
    const claim = await this.find(userId, claimId);
    await this.requestCertificate(claim, true);
    return this.view((await this.repo.find(userId, claimId))!);
  }

  async delete(userId: number, claimId: number): Promise<{ id: number; deleted: true }> {
    await this.undo(await this.find(userId, claimId));
    return { id: claimId, deleted: true };
  }

  private async find(userId: number, claimId: number): Promise<Claim> {
    const claim = await this.repo.find(userId, claimId);
    if (claim === null) throw claimNotFound();
    return claim;
  }

  /** Removes a claim and all it made: the certificate (revoked), the delegation, the zone. */
  private async undo(claim: Claim): Promise<void> {
    const fqdn = `${claim.label}.${claim.suffix}`;
    if (claim.certificate_requested_at !== null)
      await this.deps.certificates.revoke(claim.user_id, `*.${fqdn}`);
    const suffixZone = this.suffixZones.get(claim.suffix);
    if (suffixZone !== undefined)
      await this.deps.records.remove(MODULE, suffixZone.zoneId, claim.label, 'NS');
    if (claim.zone_id !== null) await this.deps.zones.deleteZone(MODULE, claim.zone_id);
    await this.repo.delete(claim.id);
  }

  /** Requests the wildcard once the suffix is delegated to us; else leaves it waiting (or 409). */
  private async requestCertificate(claim: Claim, refuseIfWaiting: boolean): Promise<void> {
    if (!(await this.delegated(claim.suffix))) {
      if (refuseIfWaiting) throw notDelegated(claim.suffix);
      return;
    }
    await this.deps.certificates.request(claim.user_id, `*.${claim.label}.${claim.suffix}`);
    await this.repo.update(claim.id, { certificate_requested_at: new Date(this.ctx.clock.now()) });
  }

  /** Whether the suffix's NS, as the check resolver sees them, are our name servers. */
  private async delegated(suffix: string): Promise<boolean> {
    const resolver = new Resolver({ timeout: 2000, tries: 2 });
    if (this.ctx.settings.checkResolver !== null) resolver.setServers([this.ctx.settings.checkResolver]);
    try {
      const ns = (await resolver.resolveNs(suffix)).map((n) => n.toLowerCase().replace(/\.$/, ''));
      return ns.length > 0 && ns.every((n) => this.deps.nameservers.includes(n));
    } catch {
      return false;
    }
  }

  private suffix(input: string | null | undefined, loc: string[]): string {
    const suffixes = [...this.suffixZones.keys()];
    const suffix = (input ?? suffixes[0] ?? '').trim().toLowerCase().replace(/\.$/, '');
    if (!this.suffixZones.has(suffix)) {
      throw invalidField(
        loc,
        suffixes.length === 0
          ? 'No platform domain suffix is offered'
          : `Unknown suffix; offered: ${suffixes.join(', ')}`,
        input ?? null,
      );
    }
    return suffix;
  }

  private async view(claim: Claim): Promise<ClaimView> {
    const fqdn = `${claim.label}.${claim.suffix}`;
    const status =
      claim.certificate_requested_at === null
        ? 'waiting_for_delegation'
        : ((await this.deps.certificates.statusOf(claim.user_id, `*.${fqdn}`)) ?? 'none');
    return {
      id: claim.id,
      label: claim.label,
      suffix: claim.suffix,
      fqdn,
      zone_id: claim.zone_id,
      certificate_status: status,
      created_at: new Date(claim.created_at).toISOString(),
    };
  }
}
