import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORGS, addMember, createOrg, staffLogin } from '../../../testing/org-fixture.ts';
import { setStaffRole } from '../../../testing/staff-fixture.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';

describe('console roles', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('lets an admin of the console set a teammate’s role, and refuses everyone else', async () => {
    const owner = await t.signUp();
    const mate = await t.signUp();
    const other = await t.signUp();
    await createOrg(t, owner.token, 'roles-one');
    const added = await addMember(t, owner.token, 'roles-one', mate.email, 'member');
    const otherMember = await addMember(t, owner.token, 'roles-one', other.email, 'member');
    const ownerStaff = await staffLogin(t, 'roles-one', owner.email);
    const mateStaff = await staffLogin(t, 'roles-one', mate.email);

    await setStaffRole(t, ownerStaff.token, 'roles-one', added.user_id, 'tier3');
    // A tier-3 teammate (as every role but admin) does not manage the team.
    const refused = await t.request('PATCH', `${ORGS}/roles-one/staff/team/${otherMember.user_id}`, {
      token: mateStaff.token,
      body: { role: 'admin' },
    });
    expect(refused.status, refused.text).toBe(403);
    // Nobody changes the owner's console role; an unknown teammate is 404; a wrong role is 422.
    const ownerId = (await t.request('GET', '/api/v1/auth/me', { token: owner.token })).body.id as number;
    for (const [id, role, status] of [
      [ownerId, 'tier1', 403],
      [999_999, 'tier1', 404],
      [otherMember.user_id, 'boss', 422],
    ] as const) {
      const res = await t.request('PATCH', `${ORGS}/roles-one/staff/team/${id}`, {
        token: ownerStaff.token,
        body: { role },
      });
      expect(res.status, res.text).toBe(status);
    }
    // A main-site token is not a console token.
    const main = await t.request('PATCH', `${ORGS}/roles-one/staff/team/${otherMember.user_id}`, {
      token: owner.token,
      body: { role: 'tier2' },
    });
    expect(main.status).toBe(401);
  });
});
