import { expect } from 'vitest';
import { ORGS, staffLogin } from './org-fixture.ts';
import type { TestApp } from './test-app.ts';

/**
 * Gives a member of `slug` a console role, through the team route, as an admin of the console
 * (`adminStaffToken`: a staff-realm token of the organization's owner or an admin).
 */
export async function setStaffRole(
  t: TestApp,
  adminStaffToken: string,
  slug: string,
  memberUserId: number,
  role: 'admin' | 'billing' | 'tier3' | 'tier2' | 'tier1',
): Promise<void> {
  const res = await t.request('PATCH', `${ORGS}/${slug}/staff/team/${memberUserId}`, {
    token: adminStaffToken,
    body: { role },
  });
  expect(res.status, res.text).toBe(200);
}

export { staffLogin };
