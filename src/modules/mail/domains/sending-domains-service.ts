import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { HostedZone, ManagedRecords, TxtEdit } from '../../dns/index.ts';
import type { MailContext } from '../mail-context.ts';
import { domainExists, domainNotFound } from '../mail-errors.ts';
import type { DomainRow, RelayRow } from '../mail-tables.ts';
import type { RelayAccess } from '../relays/relay-access.ts';
import { newDkimKey, newSelector, txtPresentation } from './dkim-key.ts';
import { checkRecords } from './domain-check.ts';
import { domainRecords, type DomainRecord } from './domain-records.ts';
import {
  holdsNothing,
  includesDomain,
  isSpf,
  spfProblem,
  spfReason,
  withInclude,
  withoutInclude,
} from './spf-record.ts';
import { sendingDomainView, type CheckedRecords, type SendingDomainView } from './sending-domain-view.ts';
import type { SendingDomainsRepository } from './sending-domains-repository.ts';

const MODULE = 'mail';
const HOSTNAME_RE = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Sending domains of a relay (base /client/smtp-relay/{service_id}/domains). A domain is verified
 * when its DKIM key and SPF records are found; a domain whose zone is hosted here by the relay's
 * holder gets them as managed records at once (the DNS module's interface) and is verified then.
 */
export class SendingDomainsService {
  private readonly keys = new Map<number, string>();

  constructor(
    private readonly ctx: MailContext,
    private readonly access: RelayAccess,
    private readonly dns: ManagedRecords,
    private readonly repo: SendingDomainsRepository,
  ) {}

  async list(owner: OwnerScope, serviceId: number): Promise<SendingDomainView[]> {
    await this.access.relayFor(owner, serviceId, 'read');
    return (await this.repo.listOf(serviceId)).map((r) => this.view(r));
  }

  async add(owner: OwnerScope, serviceId: number, input: string): Promise<SendingDomainView> {
    const relay = await this.access.relayFor(owner, serviceId, 'write');
    const domain = input.trim().toLowerCase().replace(/\.$/, '');
    if (!HOSTNAME_RE.test(domain)) throw invalidField(['body', 'domain'], 'Not a valid domain name', input);
    if (await this.repo.find(serviceId, domain)) throw domainExists();
    const zone = await this.hostedZoneOf(relay, domain);
    const now = new Date(this.ctx.clock.now());
    const row = await this.insert(serviceId, domain, zone, now);
    if (zone === null) return this.view(row);
    await this.publish(
      zone,
      this.records(row).filter((r) => r.purpose !== 'spf'),
    );
    const spf = await this.mergeSpf(zone, row);
    return this.view(
      await this.mark(row, { dkim: true, spf: spf === null, spf_reason: spf, return_path: true }, now),
    );
  }

  async verify(owner: OwnerScope, serviceId: number, domain: string): Promise<SendingDomainView> {
    await this.access.relayFor(owner, serviceId, 'write');
    const row = await this.repo.find(serviceId, domain.trim().toLowerCase());
    if (row === null) throw domainNotFound();
    const found = await checkRecords(
      this.ctx.settings.checkResolver,
      this.records(row),
      this.ctx.settings.spfInclude,
    );
    return this.view(await this.mark(row, found, new Date(this.ctx.clock.now())));
  }

  async remove(owner: OwnerScope, serviceId: number, domain: string): Promise<void> {
    await this.access.relayFor(owner, serviceId, 'write');
    const row = await this.repo.find(serviceId, domain.trim().toLowerCase());
    if (row === null) throw domainNotFound();
    await this.withdraw(row);
    await this.repo.delete(row.id);
    this.keys.delete(Number(row.id));
  }

  /** The signing key of a verified domain of the relay; null when it has none. */
  async signingKeyFor(
    serviceId: number,
    domain: string,
  ): Promise<{ domain: string; selector: string; privateKeyPem: string } | null> {
    const row = await this.repo.find(serviceId, domain);
    if (row === null || row.status !== 'verified') return null;
    let pem = this.keys.get(Number(row.id));
    if (pem === undefined) {
      pem = this.ctx.sealer.openText(row.dkim_private_key, sealContext(serviceId, row.domain));
      this.keys.set(Number(row.id), pem);
    }
    return { domain: row.domain, selector: row.selector, privateKeyPem: pem };
  }

  /** A relay ended: its records leave the zones (the rows stay, unverified). */
  async removeAllFor(serviceId: number): Promise<void> {
    for (const row of await this.repo.listOf(serviceId)) await this.withdraw(row);
    await this.repo.unpublishAll(serviceId);
  }

  /** A new domain with a DKIM key of its own; a twin added meanwhile is `domainExists`. */
  private async insert(
    serviceId: number,
    domain: string,
    zone: HostedZone | null,
    now: Date,
  ): Promise<DomainRow> {
    const key = await newDkimKey();
    try {
      return await this.repo.insert({
        service_id: serviceId,
        domain,
        selector: newSelector(),
        dkim_private_key: this.ctx.sealer.sealText(key.privateKeyPem, sealContext(serviceId, domain)),
        dkim_public_key: key.publicKeyBase64,
        zone_id: zone?.zoneId ?? null,
        status: 'pending',
        created_at: now,
      });
    } catch (error) {
      if (await this.repo.find(serviceId, domain)) throw domainExists();
      throw error;
    }
  }

  /** Publishes the records in the holder's zone, as records the mail module manages. */
  private async publish(zone: HostedZone, records: readonly DomainRecord[]): Promise<void> {
    await this.dns.put(
      MODULE,
      zone.zoneId,
      records.map((r) => ({
        name: r.name,
        type: r.type,
        content: r.type === 'TXT' ? txtPresentation(r.value) : `${r.value}.`,
        ttl: 3600,
      })),
    );
  }

  /**
   * Our include in the domain's SPF record (RFC 7208 §4.5: one record per domain): put before the
   * `all` of the holder's record, or a record of ours made when there is none. Two records, or one
   * that does not parse, are left as they are (the holder's to mend). Answers why the SPF found
   * then does not let us send (null: it does).
   */
  private async mergeSpf(zone: HostedZone, row: DomainRow): Promise<string | null> {
    const include = this.ctx.settings.spfInclude;
    const { reason, part } = await this.dns.editTxt(MODULE, zone.zoneId, row.domain, (records) => {
      const spf = records.filter((r) => isSpf(r.text));
      if (spf.length === 0) {
        const text = `v=spf1 include:${include} ~all`;
        return { edits: [{ id: null, text }], value: { reason: null, part: true } };
      }
      const only = spf.length === 1 ? spf[0]! : null;
      if (only !== null && spfProblem(only.text) === null && !includesDomain(only.text, include)) {
        const text = withInclude(only.text, include);
        return { edits: [{ id: only.id, text }], value: { reason: spfReason([text], include), part: true } };
      }
      const texts = records.map((r) => r.text);
      return { edits: [], value: { reason: spfReason(texts, include), part: false } };
    });
    if (part) await this.repo.setSpfPart(row.id, true);
    return reason;
  }

  /**
   * The domain's records leave its zone: the DKIM key and the return-path name, and our include
   * from the SPF record (the holder's record as it was; one we made and that holds nothing else goes).
   */
  private async withdraw(row: DomainRow): Promise<void> {
    if (row.zone_id === null) return;
    const zoneId = Number(row.zone_id);
    // Another relay still sends from the domain: the names they share (SPF include, return path)
    // stay, and leave with the last of them; this row's DKIM key goes.
    const heir = await this.repo.otherPublished(row.domain, zoneId, Number(row.id));
    for (const r of this.records(row))
      if (r.purpose === 'dkim' || (r.purpose === 'return_path' && heir === null))
        await this.dns.remove(MODULE, zoneId, r.name, r.type);
    if (heir !== null) {
      if (row.spf_part) await this.repo.setSpfPart(Number(heir.id), true);
      return;
    }
    const include = this.ctx.settings.spfInclude;
    await this.dns.editTxt(MODULE, zoneId, row.domain, (records) => ({
      value: undefined,
      edits: records.flatMap((r): TxtEdit[] => {
        const ours = r.managedBy === MODULE;
        if (!isSpf(r.text) || !(ours || row.spf_part)) return [];
        const rest = withoutInclude(r.text, include);
        if (ours && holdsNothing(rest)) return [{ id: r.id, text: null }];
        return rest === r.text || !row.spf_part ? [] : [{ id: r.id, text: rest }];
      }),
    }));
  }

  /** The hosted zone of `domain` when the relay's holder holds it; else null (published by hand). */
  private async hostedZoneOf(relay: RelayRow, domain: string): Promise<HostedZone | null> {
    const zone = await this.dns.findZoneFor(domain);
    if (zone === null || zone.managedBy !== null) return null;
    const orgId = relay.org_id === null ? null : Number(relay.org_id);
    if (orgId !== null) return zone.orgId === orgId ? zone : null;
    return zone.orgId === null && zone.userId === Number(relay.user_id) ? zone : null;
  }

  private async mark(row: DomainRow, found: CheckedRecords, at: Date): Promise<DomainRow> {
    const verified = found.dkim === true && found.spf === true;
    return this.repo.recordCheck(row.id, {
      status: verified ? 'verified' : 'pending',
      verified_at: verified ? (row.verified_at ?? at) : null,
      checked_at: at,
      check_result: found,
    });
  }

  private records(row: DomainRow): DomainRecord[] {
    return domainRecords(row.domain, row.selector, row.dkim_public_key, this.ctx.settings);
  }

  private view(row: DomainRow): SendingDomainView {
    return sendingDomainView(row, this.ctx.settings);
  }
}

function sealContext(serviceId: number, domain: string): string {
  return `mail-dkim:${serviceId}:${domain}`;
}
