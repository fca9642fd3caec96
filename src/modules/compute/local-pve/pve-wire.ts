/**
 * PVE's wire rules for the local server: parameter checks with PVE's own messages (pve-common
 * `PVE::JSONSchema`: booleans only `0`/`1`, enumerations, formats, unknown parameters refused), the
 * error that carries an HTTP status and reason phrase (`{data: null, errors}` for 400s), and UPIDs
 * (`PVE::Tools::upid_encode`: pid, pstart and starttime as 8-digit upper-case hex).
 */

/** An answer PVE gives as an HTTP error: the message is the reason phrase. */
export class PveApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: Readonly<Record<string, string>> | null = null,
  ) {
    super(message);
  }
}

/** A 500 as PVE's API handlers raise them (`die "...\n"`). */
export const pveFail = (message: string): PveApiError => new PveApiError(500, message);

export type ParamSpec =
  | { readonly type: 'integer'; readonly optional?: boolean; readonly min?: number; readonly max?: number }
  | { readonly type: 'number'; readonly optional?: boolean; readonly min?: number }
  | { readonly type: 'boolean'; readonly optional?: boolean }
  | {
      readonly type: 'string';
      readonly optional?: boolean;
      readonly enum?: readonly string[];
      readonly maxLength?: number;
      /** A PVE format check: the reason when the value is not of the format, else null. */
      readonly format?: (value: string) => string | null;
    };

export type ParamSchema = Readonly<Record<string, ParamSpec>>;
export type Checked = Record<string, string | number | boolean>;

/**
 * Checks parameters as PVE::JSONSchema::validate does; throws 400 `Parameter verification failed.`
 * with one reason per parameter.
 */
export function checkParams(params: Readonly<Record<string, string>>, schema: ParamSchema): Checked {
  const errors: Record<string, string> = {};
  const out: Checked = {};
  for (const [name, value] of Object.entries(params)) {
    const spec = schema[name];
    if (!spec) {
      errors[name] = 'property is not defined in schema and the schema does not allow additional properties';
      continue;
    }
    if (spec.type === 'boolean') {
      if (value === '1') out[name] = true;
      else if (value === '0') out[name] = false;
      else errors[name] = `type check ('boolean') failed - got '${value}'`;
    } else if (spec.type === 'integer') {
      if (!/^[+-]?\d+$/.test(value)) errors[name] = `type check ('integer') failed - got '${value}'`;
      else {
        const n = Number(value);
        if (spec.min !== undefined && n < spec.min)
          errors[name] = `value must have a minimum value of ${spec.min}`;
        else if (spec.max !== undefined && n > spec.max)
          errors[name] = `value must have a maximum value of ${spec.max}`;
        else out[name] = n;
      }
    } else if (spec.type === 'number') {
      if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value))
        errors[name] = `type check ('number') failed - got '${value}'`;
      else if (spec.min !== undefined && Number(value) < spec.min)
        errors[name] = `value must have a minimum value of ${spec.min}`;
      else out[name] = Number(value);
    } else {
      if (spec.enum && !spec.enum.includes(value)) {
        errors[name] = `value '${value}' does not have a value in the enumeration '${spec.enum.join(', ')}'`;
        continue;
      }
      if (spec.maxLength !== undefined && value.length > spec.maxLength) {
        errors[name] = `value may only be ${spec.maxLength} characters long`;
        continue;
      }
      const bad = spec.format?.(value) ?? null;
      if (bad !== null) errors[name] = `invalid format - ${bad}`;
      else out[name] = value;
    }
  }
  for (const [name, spec] of Object.entries(schema)) {
    if (!spec.optional && !(name in params) && errors[name] === undefined)
      errors[name] = 'property is missing and it is not optional';
  }
  if (Object.keys(errors).length > 0) throw new PveApiError(400, 'Parameter verification failed.', errors);
  return out;
}

// Formats (pve-common PVE::JSONSchema / qemu-server), with PVE's messages.
export const fmtConfigId = (v: string): string | null =>
  /^[a-z][a-z0-9_-]+$/i.test(v) ? null : `invalid configuration ID '${v}'`;
export const fmtUrlEncoded = (v: string): string | null =>
  /^[-%a-zA-Z0-9_.!~*'()]*$/.test(v) ? null : `invalid urlencoded string: ${v}`;
export const fmtDnsName = (v: string): string | null =>
  /^(?=.{1,255}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(v)
    ? null
    : `value does not look like a valid DNS name`;
export const fmtStorageId = (v: string): string | null =>
  /^[a-z][a-z0-9\-_.]*[a-z0-9]$/i.test(v) ? null : `storage ID '${v}' contains illegal characters`;
export const fmtNode = (v: string): string | null =>
  /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/i.test(v) ? null : `value does not look like a valid node name`;
export const fmtVolid = (v: string): string | null =>
  /^[a-z][a-z0-9\-_.]*[a-z0-9]:.+$/i.test(v) ? null : `unable to parse volume ID '${v}'`;
export const fmtDiskSize = (v: string): string | null =>
  /^\+?\d+(\.\d+)?[KMGT]?$/.test(v) ? null : `unable to parse size '${v}'`;

export const VMID: ParamSpec = { type: 'integer', min: 100, max: 999_999_999 };
export const NODE: ParamSpec = { type: 'string', format: fmtNode };

/** The parts of a UPID, as `PVE::Tools::upid_decode` reads them. */
export interface UpidParts {
  readonly node: string;
  readonly pid: number;
  readonly pstart: number;
  readonly starttime: number;
  readonly type: string;
  readonly id: string;
  readonly user: string;
}

const hex8 = (n: number): string => n.toString(16).toUpperCase().padStart(8, '0');

export function upidEncode(p: UpidParts): string {
  return `UPID:${p.node}:${hex8(p.pid)}:${hex8(p.pstart)}:${hex8(p.starttime)}:${p.type}:${p.id}:${p.user}:`;
}

export function upidDecode(upid: string): UpidParts | null {
  const m =
    /^UPID:([a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?):([0-9A-Fa-f]{8}):([0-9A-Fa-f]{8,9}):([0-9A-Fa-f]{8}):([^:\s]+):([^:\s]*):([^:\s]+):$/.exec(
      upid,
    );
  if (!m) return null;
  return {
    node: m[1]!,
    pid: parseInt(m[3]!, 16),
    pstart: parseInt(m[4]!, 16),
    starttime: parseInt(m[5]!, 16),
    type: m[6]!,
    id: m[7]!,
    user: m[8]!,
  };
}

/** `key=value,key=value` property strings (PVE's `parse_property_string`), the first entry possibly bare. */
export function parsePropertyString(s: string, defaultKey: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of s.split(',')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    if (eq < 0) out[defaultKey] = part;
    else out[part.slice(0, eq)] = part.slice(eq + 1);
  }
  return out;
}
