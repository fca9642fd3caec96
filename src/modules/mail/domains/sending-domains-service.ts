import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { HostedZone, ManagedRecords } from '../../dns/index.ts';
import type { MailContext } from '../mail-context.ts';
import { domainExists, domainNotFound } from '../mail-errors.ts';
import type { DomainRow, RelayRow } from '../mail-tables.ts';
import type { RelayAccess } from '../relays/relay-access.ts';
import { newDkimKey, newSelector, txtPresentation } from './dkim-key.ts';
import { checkRecords } from './domain-check.ts';
import { domainRecords, type DomainRecord, type RecordPurpose } from './domain-records.ts';

const MODULE = 'mail';
const HOSTNAME_RE = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;

export interface DomainView {
  readonly domain: string;
  readonly status: 'pending' | 'verified';
  readonly dkim_selector: string;
  /** The records were published in a zone hosted here (as managed records). */
  readonly hosted_here: boolean;
  readonly records: (DomainRecord & { readonly verified: boolean })[];
  readonly verified_at: string | null;
  readonly checked_at: string | null;
  readonly created_at: string;
}

type Checked = Partial<Record<RecordPurpose, boolean>>;

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
  ) {}

  async list(owner: OwnerScope, serviceId: number): Promise<DomainView[]> {
    await this.access.relayFor(owner, serviceId, 'read');
    const rows = await this.ctx.db
      .selectFrom('mail_domains')
      .selectAll()
      .where('service_id', '=', serviceId)
      .orderBy('domain')
      .execute();
    return rows.map((r) => this.view(r));
  }

  async add(owner: OwnerScope, serviceId: number, input: string): Promise<DomainView> {
    const relay = await this.access.relayFor(owner, serviceId, 'write');
    const domain = input.trim().toLowerCase().replace(/\.$/, '');
    if (!HOSTNAME_RE.test(domain)) throw invalidField(['body', 'domain'], 'Not a valid domain name', input);
    if (await this.find(serviceId, domain)) throw domainExists();
    const key = await newDkimKey();
    const selector = newSelector();
    const records = domainRecords(domain, selector, key.publicKeyBase64, this.ctx.settings);
    const zone = await this.hostedZoneOf(relay, domain);
    const now = new Date(this.ctx.clock.now());
    let row: DomainRow;
    try {
      row = await this.ctx.db
        .insertInto('mail_domains')
        .values({
          service_id: serviceId,
          domain,
          selector,
          dkim_private_key: this.ctx.sealer.sealText(key.privateKeyPem, sealContext(serviceId, domain)),
          dkim_public_key: key.publicKeyBase64,
          zone_id: zone?.zoneId ?? null,
          status: 'pending',
          created_at: now,
        } as never)
        .returningAll()
        .executeTakeFirstOrThrow();
    } catch (error) {
      if (await this.find(serviceId, domain)) throw domainExists();
      throw error;
    }
    if (zone === null) return this.view(row);
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
    const checked: Checked = { dkim: true, spf: true, return_path: true };
    return this.view(await this.mark(row, checked, now));
  }

  async verify(owner: OwnerScope, serviceId: number, domain: string): Promise<DomainView> {
    await this.access.relayFor(owner, serviceId, 'write');
    const row = await this.find(serviceId, domain.trim().toLowerCase());
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
    const row = await this.find(serviceId, domain.trim().toLowerCase());
    if (row === null) throw domainNotFound();
    await this.withdraw(row);
    await this.ctx.db.deleteFrom('mail_domains').where('id', '=', row.id).execute();
    this.keys.delete(Number(row.id));
  }

  /** The signing key of a verified domain of the relay; null when it has none. */
  async signingKeyFor(
    serviceId: number,
    domain: string,
  ): Promise<{ domain: string; selector: string; privateKeyPem: string } | null> {
    const row = await this.find(serviceId, domain);
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
    const rows = await this.ctx.db
      .selectFrom('mail_domains')
      .selectAll()
      .where('service_id', '=', serviceId)
      .execute();
    for (const row of rows) await this.withdraw(row);
    await this.ctx.db
      .updateTable('mail_domains')
      .set({ status: 'pending', verified_at: null, zone_id: null })
      .where('service_id', '=', serviceId)
      .execute();
  }

  private async withdraw(row: DomainRow): Promise<void> {
    if (row.zone_id === null) return;
    for (const r of this.records(row)) await this.dns.remove(MODULE, Number(row.zone_id), r.name, r.type);
  }

  /** The hosted zone of `domain` when the relay's holder holds it; else null (published by hand). */
  private async hostedZoneOf(relay: RelayRow, domain: string): Promise<HostedZone | null> {
    const zone = await this.dns.findZoneFor(domain);
    if (zone === null || zone.managedBy !== null) return null;
    const orgId = relay.org_id === null ? null : Number(relay.org_id);
    if (orgId !== null) return zone.orgId === orgId ? zone : null;
    return zone.orgId === null && zone.userId === Number(relay.user_id) ? zone : null;
  }

  private async mark(row: DomainRow, found: Checked, at: Date): Promise<DomainRow> {
    const verified = found.dkim === true && found.spf === true;
    return this.ctx.db
      .updateTable('mail_domains')
      .set({
        status: verified ? 'verified' : 'pending',
        verified_at: verified ? (row.verified_at ?? at) : null,
        checked_at: at,
        check_result: JSON.stringify(found),
      } as never)
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  private async find(serviceId: number, domain: string): Promise<DomainRow | null> {
    return (
      (await this.ctx.db
        .selectFrom('mail_domains')
        .selectAll()
        .where('service_id', '=', serviceId)
        .where('domain', '=', domain)
        .executeTakeFirst()) ?? null
    );
  }

  private records(row: DomainRow): DomainRecord[] {
    return domainRecords(row.domain, row.selector, row.dkim_public_key, this.ctx.settings);
  }

  private view(row: DomainRow): DomainView {
    const checked = (
      typeof row.check_result === 'string' ? JSON.parse(row.check_result) : row.check_result
    ) as Checked | null;
    return {
      domain: row.domain,
      status: row.status,
      dkim_selector: row.selector,
      hosted_here: row.zone_id !== null,
      records: this.records(row).map((r) => ({ ...r, verified: checked?.[r.purpose] === true })),
      verified_at: row.verified_at === null ? null : new Date(row.verified_at).toISOString(),
      checked_at: row.checked_at === null ? null : new Date(row.checked_at).toISOString(),
      created_at: new Date(row.created_at).toISOString(),
    };
  }
}

function sealContext(serviceId: number, domain: string): string {
  return `mail-dkim:${serviceId}:${domain}`;
}
