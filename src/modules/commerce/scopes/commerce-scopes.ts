/**
 * The fifteen scopes of the Commerce API (docs/keys-and-limits.md, "Scopes"), and how a key's
 * scopes grant a route's: a `:write` scope includes the `:read` scope of its area; `commerce:*`
 * grants every scope; `<area>:*` (`commerce.orders:*`) grants every scope of that area.
 */
export const COMMERCE_SCOPES = [
  'commerce.store:read',
  'commerce.store:write',
  'commerce.catalog:read',
  'commerce.catalog:write',
  'commerce.inventory:write',
  'commerce.customers:read',
  'commerce.customers:write',
  'commerce.orders:read',
  'commerce.orders:write',
  'commerce.returns:write',
  'commerce.refunds:write',
  'commerce.promotions:write',
  'commerce.fulfillment:write',
  'commerce.finance:read',
  'commerce.disputes:write',
] as const;

const COMMERCE_AREAS: readonly string[] = [
  ...new Set(COMMERCE_SCOPES.map((s) => s.slice(0, s.indexOf(':')))),
];

/** Scopes a key may be given: the fifteen, `commerce:*`, and `<area>:*` of each area. */
export function isGrantableScope(scope: string): boolean {
  if (scope === 'commerce:*') return true;
  if ((COMMERCE_SCOPES as readonly string[]).includes(scope)) return true;
  return scope.endsWith(':*') && COMMERCE_AREAS.includes(scope.slice(0, -2));
}

/** Whether `held` grants `needed`. */
export function grants(held: readonly string[], needed: string): boolean {
  const colon = needed.indexOf(':');
  const area = needed.slice(0, colon);
  const access = needed.slice(colon + 1);
  return held.some(
    (s) =>
      s === 'commerce:*' || s === needed || s === `${area}:*` || (access === 'read' && s === `${area}:write`),
  );
}
