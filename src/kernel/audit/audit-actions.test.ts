import { describe, expect, it } from 'vitest';
import { deriveAuditAction } from './audit-actions.ts';

describe('audit actions read off a route', () => {
  it.each([
    ['POST', '/zones', 'dns.zone.create'],
    ['PATCH', '/zones/:zone_id', 'dns.zone.update'],
    ['DELETE', '/zones/:zone_id', 'dns.zone.delete'],
    ['POST', '/zones/:zone_id/records', 'dns.record.create'],
    ['PUT', '/zones/:zone_id/records/:record_id', 'dns.record.update'],
    ['DELETE', '/zones/:zone_id/records/:record_id', 'dns.record.delete'],
    ['POST', '/zones/:zone_id/import', 'dns.zone.import'],
    ['POST', '/zones/:zone_id/lb-pools', 'dns.pool.create'],
    ['PATCH', '/zones/:zone_id/load-balancers/:lb_id', 'dns.load_balancer.update'],
    ['POST', '/zones/:zone_id/pools/:pool_id/members/:member_id/health-check', 'dns.member.health_check'],
    ['PUT', '/zones/:zone_id/transfers', 'dns.transfer.update'],
    ['POST', '/:org_slug/api-keys', 'orgs.api_key.create'],
    ['POST', '', 'orgs.create'],
  ])('%s %s → %s', (method, url, action) => {
    const module = url.startsWith('/zones') ? 'dns' : 'orgs';
    expect(deriveAuditAction(module, method, url)).toBe(action);
  });
});
