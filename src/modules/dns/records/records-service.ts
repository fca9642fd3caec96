import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import {
  lastNsBeforeDs,
  recordConflict,
  recordExists,
  recordManaged,
  recordNotFound,
} from '../dns-errors.ts';
import { RR_TYPE, typeFromText } from '../../../dns/index.ts';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import { pageOffset } from '../../../kernel/paging/paging.ts';
import { resolveRecordName } from '../shared/record-name.ts';
import { checkZoneRules, type RuleRecord } from '../shared/zone-rules.ts';
import type { Transaction } from 'kysely';
import type { DnsTables, RecordRow, ZoneRow } from '../dns-tables.ts';
import type { ZoneChanges } from '../shared/zone-changes.ts';
import type { NameClaim, NameClaimSource } from '../dns-interfaces.ts';
import { joinTransaction } from '../../../kernel/db/unit-of-work.ts';
import type { Registry } from '../../../kernel/module/registry.ts';
import type { ZonesRepository } from '../zones/zones-repository.ts';
import { prepareRecord, type RecordBody } from './record-input.ts';
import { recordView, type RecordView } from './record-view.ts';
import type { NewRecord, RecordsRepository, RuleRow } from './records-repository.ts';

export class RecordsService {
  constructor(
    private readonly repo: RecordsRepository,
    private readonly zones: ZonesRepository,
    private readonly changes: ZoneChanges,
    /** Names other modules hold in zones (load balancer hostnames). */
    private readonly claims: Registry<NameClaimSource>,
  ) {}

  /** Every name claimed in the zone by other modules, read in the zone change's transaction. */
  async nameClaims(zoneId: number, trx: Transaction<DnsTables>): Promise<Map<string, NameClaim[]>> {
    const all = new Map<string, NameClaim[]>();
    for (const source of this.claims.all()) {
      for (const [name, claim] of await source(zoneId, joinTransaction(trx)))
        all.set(name, [...(all.get(name) ?? []), claim]);
    }
    return all;
  }

  async list(
    owner: OwnerScope,
    zoneId: number,
    query: { page: number; per_page: number; record_type?: string; name?: string },
  ): Promise<RecordView[]> {
    const zone = await this.zones.findAccessible(owner, zoneId);
    const filter: { typeCode?: number; name?: string } = {};
    if (query.record_type !== undefined && query.record_type !== '') {
      const code = typeFromText(query.record_type.trim());
      // An unknown type matches nothing, as other filters match nothing for an unknown value.
      if (code === null) return [];
      filter.typeCode = code;
    }
    if (query.name !== undefined && query.name !== '') {
      const resolved = resolveRecordName(query.name, zone.domain);
      filter.name = resolved.ok ? resolved.name : query.name.toLowerCase();
    }
    const rows = await this.repo.list(
      zone.id,
      filter,
      query.per_page,
      pageOffset(query.page, query.per_page),
    );
    return rows.map(recordView);
  }

  async get(owner: OwnerScope, zoneId: number, recordId: number): Promise<RecordView> {
    const zone = await this.zones.findAccessible(owner, zoneId);
    const row = await this.repo.find(zone.id, recordId);
    if (!row) throw recordNotFound();
    return recordView(row);
  }

  async create(owner: OwnerScope, zoneId: number, body: RecordBody): Promise<RecordView> {
    return this.changes.apply(owner, zoneId, async (trx, zone) => {
      const value = await this.insertIn(trx, zone, body, null);
      return { value, changed: true, names: [value.name] };
    });
  }

  async replace(owner: OwnerScope, zoneId: number, recordId: number, body: RecordBody): Promise<RecordView> {
    return this.changes.apply(owner, zoneId, async (trx, zone) => {
      const repo = this.repo.withTx(trx);
      const existing = await repo.find(zone.id, recordId);
      if (!existing) throw recordNotFound();
      if (existing.managed_by !== null) throw recordManaged(existing.managed_by);
      const record = prepareRecord(zone.domain, zone.default_ttl, body);
      const same =
        existing.name === record.name &&
        existing.type_code === record.type_code &&
        existing.content === record.content &&
        existing.ttl === record.ttl;
      if (same) return { value: recordView(existing), changed: false };
      await this.checkWrite(trx, zone, record, existing);
      const value = recordView(await repo.update(existing.id, record));
      return { value, changed: true, names: [existing.name, record.name] };
    });
  }

  async delete(owner: OwnerScope, zoneId: number, recordId: number): Promise<void> {
    await this.changes.apply(owner, zoneId, async (trx, zone) => {
      const repo = this.repo.withTx(trx);
      const existing = await repo.find(zone.id, recordId);
      if (!existing) throw recordNotFound();
      if (existing.managed_by !== null) throw recordManaged(existing.managed_by);
      if (existing.type_code === RR_TYPE.NS) {
        const around = await repo.forRulesAt(zone.id, existing.name, zone.domain, false);
        const rest = around.filter((r) => r.id !== existing.id && r.name === existing.name);
        if (rest.some((r) => r.type_code === RR_TYPE.DS) && !rest.some((r) => r.type_code === RR_TYPE.NS)) {
          throw lastNsBeforeDs(existing.name);
        }
      }
      await repo.delete(existing.id);
      return { value: undefined, changed: true, names: [existing.name] };
    });
  }

  /**
   * Inside a zone change: validates `body` as the record routes do (identical records, the zone
   * rules, other modules' claims) and inserts it, owned by `managedBy` (a module) or by the user.
   */
  async insertIn(
    trx: Transaction<DnsTables>,
    zone: ZoneRow,
    body: RecordBody,
    managedBy: string | null,
  ): Promise<RecordView> {
    const record = prepareRecord(zone.domain, zone.default_ttl, body);
    await this.checkWrite(trx, zone, record, null);
    return recordView(await this.repo.withTx(trx).insert(zone.id, record, managedBy));
  }

  /** Identical records, the zone rules, and other modules' claims on names; throws the first refusal. */
  private async checkWrite(
    trx: Transaction<DnsTables>,
    zone: ZoneRow,
    record: NewRecord,
    replacing: RecordRow | null,
  ): Promise<void> {
    const repo = this.repo.withTx(trx);
    if ((await repo.findIdentical(zone.id, record, replacing?.id ?? null)) !== null) {
      throw recordExists();
    }
    for (const claim of (await this.nameClaims(zone.id, trx)).get(record.name) ?? []) {
      const refusal = claim.refuse(record.type_code);
      if (refusal !== null) throw recordConflict(refusal);
    }
    const isCut = record.type_code === RR_TYPE.NS;
    const rows: RuleRow[] = await repo.forRulesAt(zone.id, record.name, zone.domain, isCut);
    const rules: RuleRecord[] = rows
      .filter((r) => r.id !== replacing?.id)
      .map((r) => ({ name: r.name, type: r.type_code, isNew: false, ref: r.id }));
    rules.push({ name: record.name, type: record.type_code, isNew: true, ref: -1 });
    const violation = checkZoneRules(zone.domain, rules).find((v) => v.record.isNew);
    if (!violation) return;
    if (violation.status === 409) throw recordConflict(violation.message);
    throw invalidField(
      ['body', violation.message.startsWith('A CNAME') ? 'type' : 'name'],
      violation.message,
      record.name,
    );
  }
}
