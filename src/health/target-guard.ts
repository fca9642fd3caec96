/**
 * The private/reserved-network rule as the probes see it (true: may connect): checked again at
 * connect time, right before a socket opens, so a member stored while the rule was relaxed never
 * sends a probe where production forbids it. The classifier lives with the member API
 * (modules/dns/shared/address-policy.ts) and is passed in, so this library depends on no module.
 */
export type TargetGuard = (address: string) => boolean;

/** Same words as the API's 422 for such an address. */
export const FORBIDDEN_TARGET_TEXT = 'health-check target targets a private or reserved network';

export class ForbiddenTargetError extends Error {
  constructor(readonly address: string) {
    super(FORBIDDEN_TARGET_TEXT);
    this.name = 'ForbiddenTargetError';
  }
}
