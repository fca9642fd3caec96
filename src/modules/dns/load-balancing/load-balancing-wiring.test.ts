import { describe, expect, it } from 'vitest';
import type { DnsContext } from '../dns-context.ts';
import { warnIfPrivateTargetsAllowed } from './load-balancing-wiring.ts';

function ctxWith(allow: boolean, warnings: string[]): DnsContext {
  return {
    settings: { healthAllowPrivateTargets: allow },
    log: { warn: (msg: string) => warnings.push(msg) },
  } as unknown as DnsContext;
}

describe('HEALTH_ALLOW_PRIVATE_TARGETS warning', () => {
  it('warns once at start when set, and not otherwise', () => {
    const warnings: string[] = [];
    warnIfPrivateTargetsAllowed(ctxWith(false, warnings));
    expect(warnings).toEqual([]);
    warnIfPrivateTargetsAllowed(ctxWith(true, warnings));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/HEALTH_ALLOW_PRIVATE_TARGETS/);
  });
});
