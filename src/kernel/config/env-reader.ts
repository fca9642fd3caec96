import { isIP } from 'node:net';

export type Env = Readonly<Record<string, string | undefined>>;

const HOSTNAME_RE =
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;

/**
 * Reads settings from the environment for the kernel and every module's section, collecting one
 * line per bad value instead of stopping at the first, so an operator fixes them in one round.
 * Each reader answers the fallback when the variable is unset or blank (or invalid: the problem is
 * recorded). The names read are remembered (`seen`), to hand the same settings to DNS workers.
 */
export class EnvReader {
  readonly problems: string[] = [];
  readonly seen = new Map<string, string>();

  constructor(private readonly env: Env) {}

  raw(name: string): string | undefined {
    const v = this.env[name];
    if (v === undefined || v.trim() === '') return undefined;
    this.seen.set(name, v);
    return v.trim();
  }

  problem(message: string): void {
    this.problems.push(message);
  }

  str(name: string, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  /** A setting whose empty value means "off": unset → `fallback`, empty → '' (trimmed otherwise). */
  orEmpty(name: string, fallback: string): string {
    const v = this.env[name];
    if (v === undefined) return fallback;
    this.seen.set(name, v);
    return v.trim();
  }

  optional(name: string): string | null {
    return this.raw(name) ?? null;
  }

  int(name: string, fallback: number, min: number, max: number): number {
    const v = this.raw(name);
    if (v === undefined) return fallback;
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
      this.problem(`${name} must be an integer from ${min} to ${max}, got "${v}"`);
      return fallback;
    }
    return Number(v);
  }

  bool(name: string, fallback: boolean): boolean {
    const v = this.raw(name)?.toLowerCase();
    if (v === undefined) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(v)) return true;
    if (['0', 'false', 'no', 'off'].includes(v)) return false;
    this.problem(`${name} must be true or false, got "${v}"`);
    return fallback;
  }

  oneOf<T extends string>(name: string, values: readonly T[], fallback: T): T {
    const v = this.raw(name)?.toLowerCase();
    if (v === undefined) return fallback;
    if ((values as readonly string[]).includes(v)) return v as T;
    this.problem(`${name} must be one of ${values.join(', ')}, got "${v}"`);
    return fallback;
  }

  countOrAuto(name: string, max: number): number | 'auto' {
    const v = this.raw(name)?.toLowerCase();
    if (v === undefined || v === 'auto') return 'auto';
    if (!/^\d+$/.test(v) || Number(v) > max) {
      this.problem(`${name} must be "auto" or an integer from 0 to ${max}, got "${v}"`);
      return 'auto';
    }
    return Number(v);
  }

  /** An address to listen on. */
  host(name: string, fallback: string): string {
    const v = this.str(name, fallback);
    if (isIP(v) === 0 && v !== 'localhost')
      this.problem(`${name} must be an IP address to listen on, got "${v}"`);
    return v;
  }

  url(name: string, protocols: readonly string[]): string | null {
    const v = this.raw(name);
    if (v === undefined) return null;
    try {
      const u = new URL(v);
      if (!protocols.includes(u.protocol)) {
        this.problem(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
      }
    } catch {
      this.problem(`${name} is not a valid URL`);
    }
    return v;
  }

  /** A comma-separated list, entries trimmed, empty entries dropped. */
  list(name: string, fallback: string): string[] {
    return this.str(name, fallback)
      .split(',')
      .map((e) => e.trim())
      .filter((e) => e !== '');
  }

  /** A comma-separated list of addresses or CIDR ranges. */
  cidrList(name: string, fallback: string): string[] {
    const entries = this.list(name, fallback);
    for (const c of entries) {
      const [addr, len] = c.split('/');
      const family = isIP(addr ?? '');
      const max = family === 6 ? 128 : 32;
      if (family === 0 || (len !== undefined && (!/^\d+$/.test(len) || Number(len) > max))) {
        this.problem(`${name} entry "${c}" is not an address or CIDR range`);
      }
    }
    return entries;
  }

  /** A comma-separated list of host names, lower-cased, without trailing dots. */
  hostnames(name: string, fallback: string): string[] {
    const names = this.list(name, fallback).map((n) => n.toLowerCase().replace(/\.$/, ''));
    for (const n of names) {
      if (!HOSTNAME_RE.test(n)) this.problem(`${name} entry "${n}" is not a valid host name`);
    }
    return names;
  }

  /** A 32-byte key in base64, or null. */
  key32(name: string): string | null {
    const v = this.raw(name) ?? null;
    if (v !== null && Buffer.from(v, 'base64').length !== 32)
      this.problem(`${name} must be 32 bytes in base64`);
    return v;
  }
}
