import { describe, expect, it } from 'vitest';
import type { LoadBalancingContext } from './load-balancing-context.ts';
import { warnIfPrivateTargetsAllowed } from './load-balancing-module.ts';

function ctxWith(allow: boolean, warnings: string[]): LoadBalancingContext {
  return {
    settings: { healthAllowPrivateTargets: allow },
    log: { warn: (msg: string) => warnings.push(msg) },
  } as unknown as LoadBalancingContext;
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
