import { parseRdataText, RR_TYPE } from '../../../dns/index.ts';
import { typeFromText } from '../../../dns/index.ts';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { DnsContext } from '../dns-context.ts';
import type { DnsTables, RecordRow, ZoneRow } from '../dns-tables.ts';
import type { UnitOfWork } from '../../../kernel/db/unit-of-work.ts';
import { RecordsRepository } from '../records/records-repository.ts';
import { ZonesRepository } from '../zones/zones-repository.ts';
import type { RecordsService } from '../records/records-service.ts';
import { resolveRecordName } from '../shared/record-name.ts';
import type { ZoneChanges } from '../shared/zone-changes.ts';
import type {
  HostedZone,
  ManagedRecord,
  ManagedRecordInput,
  ManagedRecords,
  TxtAt,
  TxtEdit,
} from '../dns-interfaces.ts';
import { prepareRecord } from '../records/record-input.ts';

const MODULE_RE = /^[a-z][a-z0-9_-]{0,31}$/;

function checkModule(module: string): void {
  if (!MODULE_RE.test(module)) throw new Error(`invalid module name for managed records: "${module}"`);
}

export function hostedZone(
  row: Pick<ZoneRow, 'id' | 'domain' | 'user_id' | 'org_id' | 'managed_by'>,
): HostedZone {
  return {
    zoneId: Number(row.id),
    domain: row.domain,
    userId: row.user_id === null ? null : Number(row.user_id),
    orgId: row.org_id === null ? null : Number(row.org_id),
    managedBy: row.managed_by,
  };
}

function managedView(r: RecordRow): ManagedRecord {
  return { id: r.id, zoneId: r.zone_id, name: r.name, type: r.type, content: r.content, ttl: r.ttl };
}

/** ManagedRecords over the zone-change unit of work: every write moves the serial and reaches DNS. */
export class ManagedRecordsService implements ManagedRecords {
  private readonly repo: RecordsRepository;
  private readonly zones: ZonesRepository;

  constructor(
    private readonly ctx: DnsContext,
    private readonly changes: ZoneChanges,
    private readonly records: RecordsService,
  ) {
    this.repo = new RecordsRepository(ctx.db);
    this.zones = new ZonesRepository(ctx.db);
  }

  async findZoneFor(name: string): Promise<HostedZone | null> {
    const labels = name.toLowerCase().replace(/\.$/, '').split('.');
    const candidates = labels.map((_, i) => labels.slice(i).join('.')).filter((d) => d.includes('.'));
    if (candidates.length === 0) return null;
    const row = await this.zones.findClosestOf(candidates);
    return row ? hostedZone(row) : null;
  }

  async put(module: string, zoneId: number, inputs: readonly ManagedRecordInput[]): Promise<ManagedRecord[]> {
    return this.ctx.transaction((uow) => this.putIn(uow, module, zoneId, inputs));
  }

  /** put() inside a unit of work already open (a zone created, deleted or moved beside it). */
  async putIn(
    uow: UnitOfWork<DnsTables>,
    module: string,
    zoneId: number,
    inputs: readonly ManagedRecordInput[],
  ): Promise<ManagedRecord[]> {
    checkModule(module);
    return this.changes.applyIn(uow, 'platform', zoneId, async (trx, zone) => {
      const pairs = new Set<string>();
      const wanted = inputs.map((input, i) => {
        const name = resolveRecordName(input.name, zone.domain);
        if (!name.ok) throw invalidField(['records', i, 'name'], name.reason, input.name);
        const type = typeFromText(input.type.trim());
        if (type === null)
          throw invalidField(['records', i, 'type'], `Unknown record type: ${input.type}`, input.type);
        pairs.add(`${name.name} ${type}`);
        return { input, name: name.name, type };
      });
      const repo = this.repo.withTx(trx);
      const existing = (await repo.listManaged(module, zone.id)).filter((r) =>
        pairs.has(`${r.name} ${r.type_code}`),
      );
      const kept: RecordRow[] = [];
      const touched = new Set<string>();
      for (const r of existing) {
        const same = wanted.some(
          (w) => w.name === r.name && w.type === r.type_code && this.sameContent(zone.domain, w.input, r),
        );
        if (same) kept.push(r);
        else {
          await repo.delete(r.id);
          touched.add(r.name);
        }
      }
      const out = kept.map(managedView);
      for (const w of wanted) {
        if (
          kept.some(
            (r) => r.name === w.name && r.type_code === w.type && this.sameContent(zone.domain, w.input, r),
          )
        )
          continue;
        const view = await this.records.insertIn(trx, zone, { ...w.input, name: w.name }, module);
        out.push({
          id: view.id,
          zoneId: zone.id,
          name: view.name,
          type: view.type,
          content: view.content,
          ttl: view.ttl,
        });
        touched.add(view.name);
      }
      return { value: out, changed: touched.size > 0, names: [...touched] };
    });
  }

  async remove(module: string, zoneId: number, name: string, type?: string): Promise<number> {
    return this.ctx.transaction((uow) => this.removeIn(uow, module, zoneId, name, type));
  }

  /** remove() inside a unit of work already open. */
  async removeIn(
    uow: UnitOfWork<DnsTables>,
    module: string,
    zoneId: number,
    name: string,
    type?: string,
  ): Promise<number> {
    checkModule(module);
    return this.changes.applyIn(uow, 'platform', zoneId, async (trx, zone) => {
      const owner = resolveRecordName(name, zone.domain);
      if (!owner.ok) return { value: 0, changed: false };
      const code = type === undefined ? null : typeFromText(type.trim());
      const repo = this.repo.withTx(trx);
      const rows = (await repo.listManaged(module, zone.id)).filter(
        (r) => r.name === owner.name && (code === null || r.type_code === code),
      );
      for (const r of rows) await repo.delete(r.id);
      return { value: rows.length, changed: rows.length > 0, names: [owner.name] };
    });
  }

  async list(module: string, zoneId?: number): Promise<ManagedRecord[]> {
    checkModule(module);
    return (await this.repo.listManaged(module, zoneId ?? null)).map(managedView);
  }

  /** list() of one zone inside a unit of work already open. */
  async listIn(uow: UnitOfWork<DnsTables>, module: string, zoneId: number): Promise<ManagedRecord[]> {
    checkModule(module);
    return (await this.repo.withTx(uow.trx).listManaged(module, zoneId)).map(managedView);
  }

  async cleanup(module: string, zoneId?: number): Promise<number> {
    checkModule(module);
    const rows = await this.repo.listManaged(module, zoneId ?? null);
    const byZone = new Map<number, RecordRow[]>();
    for (const r of rows) byZone.set(r.zone_id, [...(byZone.get(r.zone_id) ?? []), r]);
    let removed = 0;
    for (const [zone, list] of byZone) {
      removed += await this.changes.apply('platform', zone, async (trx) => {
        const repo = this.repo.withTx(trx);
        for (const r of list) await repo.delete(r.id);
        return { value: list.length, changed: list.length > 0, names: list.map((r) => r.name) };
      });
    }
    return removed;
  }

  async editTxt<T>(
    module: string,
    zoneId: number,
    name: string,
    edit: (records: readonly TxtAt[]) => { readonly edits: readonly TxtEdit[]; readonly value: T },
  ): Promise<T> {
    checkModule(module);
    return this.changes.apply('platform', zoneId, async (trx, zone) => {
      const owner = resolveRecordName(name, zone.domain);
      if (!owner.ok) throw invalidField(['name'], owner.reason, name);
      const repo = this.repo.withTx(trx);
      const rows = await repo.listAt(zone.id, owner.name, RR_TYPE.TXT);
      const { edits, value } = edit(
        rows.map((r) => ({ id: Number(r.id), text: txtText(r.rdata), managedBy: r.managed_by })),
      );
      let changed = false;
      for (const e of edits) {
        if (e.id === null) {
          if (e.text === null) continue;
          await this.records.insertIn(
            trx,
            zone,
            { name: owner.name, type: 'TXT', content: txtContent(e.text) },
            module,
          );
          changed = true;
          continue;
        }
        const row = rows.find((r) => Number(r.id) === e.id);
        if (row === undefined) continue;
        if (e.text === null) {
          // Only a record the module holds goes; the holder's own stays theirs to delete.
          if (row.managed_by !== module) continue;
          await repo.delete(row.id);
          changed = true;
          continue;
        }
        if (e.text === txtText(row.rdata)) continue;
        const record = prepareRecord(zone.domain, zone.default_ttl, {
          name: owner.name,
          type: 'TXT',
          content: txtContent(e.text),
          ttl: row.ttl,
        });
        if ((await repo.findIdentical(zone.id, record, row.id)) !== null) continue;
        await repo.update(row.id, record);
        changed = true;
      }
      return { value, changed, names: [owner.name] };
    });
  }

  /** Whether the stored record is the input's record (content compared in canonical form, TTL too). */
  private sameContent(domain: string, input: ManagedRecordInput, row: RecordRow): boolean {
    try {
      const rdata = parseRdataText(row.type_code, input.content, domain);
      return (
        Buffer.from(rdata).equals(Buffer.from(row.rdata)) &&
        (input.ttl === undefined || input.ttl === row.ttl)
      );
    } catch {
      return false;
    }
  }
}

/** A TXT record's strings joined (RFC 1035 §3.3.14: each a length octet and that many octets). */
function txtText(rdata: Uint8Array): string {
  const bytes = Buffer.from(rdata);
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length;) {
    const n = bytes[i]!;
    parts.push(bytes.subarray(i + 1, i + 1 + n));
    i += 1 + n;
  }
  return Buffer.concat(parts).toString('utf8');
}

/** Text as TXT presentation: quoted strings of at most 255 octets, `"` and backslash escaped. */
function txtContent(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  const parts: string[] = [];
  for (let i = 0; i < bytes.length || i === 0; i += 255) {
    const chunk = bytes.subarray(i, i + 255);
    let out = '';
    for (const b of chunk) {
      if (b === 0x22 || b === 0x5c) out += `\\${String.fromCharCode(b)}`;
      else if (b < 0x20 || b > 0x7e) out += `\\${String(b).padStart(3, '0')}`;
      else out += String.fromCharCode(b);
    }
    parts.push(`"${out}"`);
    if (bytes.length === 0) break;
  }
  return parts.join(' ');
}
