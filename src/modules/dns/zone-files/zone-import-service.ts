import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import { parseZoneFile } from '../../../dns/index.ts';
import { RR_TYPE, typeToText } from '../../../dns/index.ts';
import { invalidFields, type ValidationProblem } from '../../../kernel/errors/app-error.ts';
import type { RecordsRepository, NewRecord } from '../records/records-repository.ts';
import type { RecordsService } from '../records/records-service.ts';
import { typeRefusal } from '../shared/record-types.ts';
import { checkZoneRules, type RuleRecord } from '../shared/zone-rules.ts';
import type { ZoneChanges } from '../shared/zone-changes.ts';

/** `merge` adds the file's records to the zone's; `replace` makes the zone's records the file's. */
export type ImportMode = 'merge' | 'replace';

export interface ImportResult {
  imported: number;
  skipped: { line: number; reason: string }[];
  /** `replace` only: records the file added, the zone's records it removed, and those it kept as they were. */
  added?: number;
  removed?: number;
  unchanged?: number;
}

const MIN_TTL = 1;
const MAX_RECORD_TTL = 2147483647;
const SKIP_SOA = 'SOA at the zone apex is managed by the platform';
const SKIP_NS = 'NS at the zone apex is managed by the platform';
const SKIP_IDENTICAL = 'identical record already exists';
const SKIP_MANAGED = 'record is managed by another module';

/**
 * Owner, type and RDATA (RFC 2181 §5: the TTL is no part of a record's identity) as one string: the
 * RDATA octets themselves (latin1 maps each octet to one character), as cheap to build as an md5
 * digest is not. Unambiguous: the type is digits and a stored-form name has no spaces (nameKey
 * escapes them), so the two separating spaces are the first two.
 */
function identityKey(name: string, type: number, rdata: Uint8Array): string {
  return `${type} ${name} ${Buffer.from(rdata.buffer, rdata.byteOffset, rdata.byteLength).toString('latin1')}`;
}

/**
 * RFC 1035 master-file import, all or nothing: every bad line is reported (422, one entry per
 * line, `loc: ["body","zone_file",<line>]`) and nothing is written unless every line is good.
 * The platform's apex SOA and NS are skipped and reported, as are records identical to ones the
 * zone (or an earlier line) already has. In `replace` mode the zone's own records become exactly
 * the file's, in the same transaction: records identical to a line (TTL included) are kept, the
 * others removed; records other modules manage (certificates' challenges, delegations) stay.
 */
export class ZoneImportService {
  constructor(
    private readonly records: RecordsRepository,
    private readonly recordsService: RecordsService,
    private readonly changes: ZoneChanges,
  ) {}

  async import(
    owner: OwnerScope,
    zoneId: number,
    zoneFile: string,
    mode: ImportMode = 'merge',
  ): Promise<ImportResult> {
    return this.changes.apply(owner, zoneId, async (trx, zone) => {
      // Split only when there is something to report: most imports are clean, and a large file
      // would otherwise become a hundred thousand strings for nothing.
      let lines: string[] | null = null;
      const problems: ValidationProblem[] = [];
      const problem = (line: number, msg: string) => {
        lines ??= zoneFile.split(/\r?\n/);
        problems.push({
          type: 'value_error',
          loc: ['body', 'zone_file', line],
          msg,
          input: lines[line - 1] ?? '',
          ctx: {},
        });
      };

      const parsed = parseZoneFile(zoneFile, zone.domain, { defaultTtl: zone.default_ttl });
      for (const e of parsed.errors) problem(e.line, e.message);

      const records = this.records.withTx(trx);
      const all = await records.forRulesAll(zone.id);
      const replace = mode === 'replace';
      // Replacing, the zone's own records are candidates for removal until a line keeps them.
      const existing = replace ? all.filter((r) => r.managed_by !== null) : all;
      const seen = new Set(existing.map((r) => identityKey(r.name, r.type_code, r.rdata)));
      const managed = new Set(
        all.filter((r) => r.managed_by !== null).map((r) => identityKey(r.name, r.type_code, r.rdata)),
      );
      const replaceable = new Map<string, number>();
      if (replace) {
        for (const r of all) {
          if (r.managed_by === null)
            replaceable.set(`${r.ttl} ${identityKey(r.name, r.type_code, r.rdata)}`, r.id);
        }
      }
      const kept = new Set<number>();
      const claims = await this.recordsService.nameClaims(zone.id, trx);
      const rules: RuleRecord[] = existing.map((r) => ({
        name: r.name,
        type: r.type_code,
        isNew: false,
        ref: 0,
      }));
      const skipped: ImportResult['skipped'] = [];
      const fresh: NewRecord[] = [];

      for (const r of parsed.records) {
        if (r.name === zone.domain && r.type === RR_TYPE.SOA) {
          skipped.push({ line: r.line, reason: SKIP_SOA });
          continue;
        }
        if (r.name === zone.domain && r.type === RR_TYPE.NS) {
          skipped.push({ line: r.line, reason: SKIP_NS });
          continue;
        }
        // The same TTL range as the records API (records-schemas.ts): RFC 2181 §8, 0 refused.
        if (r.ttl < MIN_TTL) {
          problem(r.line, `TTL must be from ${MIN_TTL} to ${MAX_RECORD_TTL}, got ${r.ttl}`);
          continue;
        }
        const refusal = typeRefusal(r.type, r.name, zone.domain);
        if (refusal !== null) {
          problem(r.line, refusal);
          continue;
        }
        const claim = claims
          .get(r.name)
          ?.map((c) => c.refuse(r.type))
          .find((m) => m !== null);
        if (claim) {
          problem(r.line, claim);
          continue;
        }
        const identity = identityKey(r.name, r.type, r.rdata);
        if (seen.has(identity)) {
          skipped.push({ line: r.line, reason: managed.has(identity) ? SKIP_MANAGED : SKIP_IDENTICAL });
          continue;
        }
        seen.add(identity);
        const same = replace ? replaceable.get(`${r.ttl} ${identity}`) : undefined;
        if (same !== undefined) {
          kept.add(same);
          rules.push({ name: r.name, type: r.type, isNew: false, ref: r.line });
          continue;
        }
        rules.push({ name: r.name, type: r.type, isNew: true, ref: r.line });
        fresh.push({
          name: r.name,
          type: typeToText(r.type),
          type_code: r.type,
          content: r.content,
          rdata: r.rdata,
          ttl: r.ttl,
        });
      }
      for (const v of checkZoneRules(zone.domain, rules))
        if (v.record.isNew) problem(v.record.ref, v.message);

      if (problems.length > 0) {
        const byLine = new Map<number, ValidationProblem>();
        for (const p of problems) if (!byLine.has(p.loc[2] as number)) byLine.set(p.loc[2] as number, p);
        throw invalidFields([...byLine.values()].sort((a, b) => (a.loc[2] as number) - (b.loc[2] as number)));
      }
      const removed = replace
        ? all.filter((r) => r.managed_by === null && !kept.has(r.id)).map((r) => r.id)
        : [];
      await records.deleteMany(zone.id, removed);
      await records.insertMany(zone.id, fresh);
      const value: ImportResult = replace
        ? {
            imported: fresh.length,
            skipped,
            added: fresh.length,
            removed: removed.length,
            unchanged: kept.size,
          }
        : { imported: fresh.length, skipped };
      return { value, changed: fresh.length > 0 || removed.length > 0 };
    });
  }
}
