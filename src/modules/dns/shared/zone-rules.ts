import { RR_TYPE, typeToText } from '../../../dns/index.ts';

/**
 * The rules a zone's records must keep together, checked on the zone as it would be after a change
 * (so an import is judged as a whole, whatever order its lines come in):
 * - CNAME stands alone at its name (RFC 1034 §3.6.2, RFC 2181 §10.1) and never at the apex;
 * - one DNAME per name (RFC 6672 §2.4);
 * - NS below the apex makes a delegation: at the cut only NS, DS and glue A/AAAA; below it only
 *   glue A/AAAA (RFC 1034 §4.2.1, everything else would be occluded);
 * - DS only at a delegation point (RFC 4035 §2.4).
 */
export interface RuleRecord {
  readonly name: string;
  readonly type: number;
  /** Written by the change being checked; violations are reported against these first. */
  readonly isNew: boolean;
  /** Opaque reference for the caller (a line number, a record id). */
  readonly ref: number;
}

export interface RuleViolation {
  readonly record: RuleRecord;
  /** 409 when records conflict with each other, 422 when a record is misplaced. */
  readonly status: 409 | 422;
  readonly message: string;
}

const AT_CUT = new Set<number>([RR_TYPE.NS, RR_TYPE.DS, RR_TYPE.A, RR_TYPE.AAAA]);
const GLUE = new Set<number>([RR_TYPE.A, RR_TYPE.AAAA]);

function parentOf(name: string): string | null {
  const dot = name.indexOf('.');
  return dot < 0 ? null : name.slice(dot + 1);
}

export function checkZoneRules(apex: string, records: readonly RuleRecord[]): RuleViolation[] {
  const byName = new Map<string, RuleRecord[]>();
  for (const r of records) {
    const list = byName.get(r.name);
    if (list) list.push(r);
    else byName.set(r.name, [r]);
  }
  const cuts = new Set<string>();
  for (const r of records) if (r.type === RR_TYPE.NS && r.name !== apex) cuts.add(r.name);

  const violations: RuleViolation[] = [];
  /**
   * A misplaced record: a new one is refused as misplaced (422); an existing one made misplaced
   * by new records (an NS that would hide it) makes those new records conflict (409).
   */
  const misplaced = (record: RuleRecord, causes: readonly RuleRecord[], message: string, hidden: string) => {
    if (record.isNew) return violations.push({ record, status: 422, message });
    const blamed = causes.filter((c) => c.isNew);
    if (blamed.length === 0) return violations.push({ record, status: 409, message });
    for (const b of blamed) violations.push({ record: b, status: 409, message: hidden });
  };

  for (const [name, list] of byName) {
    const cnames = list.filter((r) => r.type === RR_TYPE.CNAME);
    if (cnames.length > 0 && name === apex) {
      for (const c of cnames)
        violations.push({
          record: c,
          status: 422,
          message: 'A CNAME record cannot be placed at the zone apex',
        });
    }
    if (cnames.length > 0 && list.length > 1) {
      const blamed = list.filter((r) => r.isNew);
      for (const r of blamed.length > 0 ? blamed : list.slice(1)) {
        violations.push({
          record: r,
          status: 409,
          message: 'A CNAME record cannot coexist with other records at the same name',
        });
      }
    }
    const dnames = list.filter((r) => r.type === RR_TYPE.DNAME);
    if (dnames.length > 1) {
      for (const d of dnames.filter((r) => r.isNew)) {
        violations.push({ record: d, status: 409, message: 'Only one DNAME record may exist at a name' });
      }
    }
    const isCut = cuts.has(name);
    if (isCut) {
      const ns = list.filter((r) => r.type === RR_TYPE.NS);
      for (const r of list) {
        if (AT_CUT.has(r.type)) continue;
        misplaced(
          r,
          ns,
          `Only NS, DS and glue A/AAAA records may be placed at the delegation point ${name}`,
          `${name} already has records that a delegation would hide; remove them first`,
        );
      }
    } else {
      for (const r of list) {
        if (r.type === RR_TYPE.DS) {
          misplaced(r, [], 'DS records must be placed at a delegation point (a name with NS records)', '');
        }
      }
    }
    // The closest delegation strictly above this name, if any, occludes everything but glue.
    for (let up = parentOf(name); up !== null && up.length >= apex.length && up !== apex; up = parentOf(up)) {
      if (!cuts.has(up)) continue;
      const ns = byName.get(up)!.filter((r) => r.type === RR_TYPE.NS);
      for (const r of list) {
        if (GLUE.has(r.type)) continue;
        misplaced(
          r,
          ns,
          `Only A/AAAA glue records may be placed below the delegation at ${up} (${typeToText(r.type)} is not glue)`,
          `Names below ${up} already have records that a delegation would hide; remove them first`,
        );
      }
      break;
    }
  }
  return violations;
}
