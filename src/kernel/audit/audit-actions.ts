/**
 * The audit action of a state-changing route that does not name one: `<module>.<resource>.<verb>`
 * read off its path — the last fixed segment names the resource (singular, `_` for `-`), the
 * method the verb (POST on a collection creates, PUT/PATCH update, DELETE deletes), and a POST to
 * a fixed segment after an id is that action (`/records/:id/health-check` → `...check`).
 *   POST /zones/:zone_id/records → dns.record.create;  DELETE /zones/:zone_id → dns.zone.delete
 */
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const SINGULAR: Readonly<Record<string, string>> = {
  'lb-pools': 'pool',
  'load-balancers': 'load_balancer',
  'api-keys': 'api_key',
  addresses: 'address',
};

function singular(segment: string): string {
  if (SINGULAR[segment] !== undefined) return SINGULAR[segment];
  const s = segment.endsWith('ies') ? `${segment.slice(0, -3)}y` : segment.replace(/s$/, '');
  return s.replace(/-/g, '_');
}

/** Path words ending in s that name an action, not a collection. */
const ACTION_WORDS = new Set(['access', 'status', 'process', 'redress']);

export function isStateChanging(method: string): boolean {
  return WRITE_METHODS.has(method.toUpperCase());
}

export function deriveAuditAction(module: string, method: string, url: string): string {
  const segments = url.split('/').filter((s) => s !== '');
  const last = segments[segments.length - 1];
  const verb =
    { POST: 'create', PUT: 'update', PATCH: 'update', DELETE: 'delete' }[method.toUpperCase()] ?? 'change';
  if (last === undefined) return `${module}.${verb}`;
  if (!last.startsWith(':')) {
    const before = segments[segments.length - 2];
    // POST /things/:id/<action> (a verb, not a plural collection): the action on the thing.
    const isCollection = last.endsWith('s') && !ACTION_WORDS.has(last);
    if (before?.startsWith(':') && method.toUpperCase() === 'POST' && !isCollection) {
      const owner = segments
        .slice(0, -2)
        .filter((s) => !s.startsWith(':'))
        .pop();
      return `${module}.${owner !== undefined ? singular(owner) : module}.${last.replace(/-/g, '_')}`;
    }
    return `${module}.${singular(last)}.${verb}`;
  }
  const resource = segments.filter((s) => !s.startsWith(':')).pop();
  return `${module}.${resource !== undefined ? singular(resource) : module}.${verb}`;
}
