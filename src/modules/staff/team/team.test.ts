import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../testing/manual-clock.ts';
import {
  ORGS,
  PASSWORD,
  addMember,
  createOrg,
  staffLogin,
  storefrontCustomer,
} from '../../../testing/org-fixture.ts';
import { mailTo, startSmtpSink, type SmtpSink } from '../../../testing/smtp-sink.ts';
import { startTestApp, type TestApp } from '../../../testing/test-app.ts';

const MFA = '/api/v1/auth/mfa';

/** An authenticator app's code (RFC 6238: 30-second steps, 6 digits) at `nowMs`. */
const totpCode = async (secret: string, nowMs: number): Promise<string> =>
  (await import('otplib')).generate({ secret, epoch: Math.floor(nowMs / 1000) });

describe('the staff console team', () => {
  const clock = new ManualClock(Date.now());
  let smtp: SmtpSink;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await startTestApp({ clock, env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const userId = async (token: string) =>
    (await t.request('GET', '/api/v1/auth/me', { token })).body.id as number;
  const code = (res: { headers: Headers }) => res.headers.get('x-error-code');

  /** Turns a second factor on for a main-site account; answers its secret. */
  async function enrol(mainToken: string): Promise<string> {
    const start = await t.request('POST', `${MFA}/enable`, { token: mainToken });
    expect(start.status, start.text).toBe(200);
    const secret = start.body.secret as string;
    const done = await t.request('POST', `${MFA}/enable`, {
      token: mainToken,
      body: { code: await totpCode(secret, clock.now()) },
    });
    expect(done.status, done.text).toBe(200);
    clock.advance(30_000);
    return secret;
  }

  /** A staff sign-in that passes the second factor. */
  async function staffLoginMfa(slug: string, email: string, secret: string): Promise<string> {
    const first = await t.request('POST', `${ORGS}/${slug}/staff/auth/login`, {
      body: { email, password: PASSWORD },
    });
    expect(first.body.mfa_required, first.text).toBe(true);
    const done = await t.request('POST', '/api/v1/auth/mfa/verify', {
      body: { mfa_token: first.body.mfa_token, code: await totpCode(secret, clock.now()) },
    });
    expect(done.status, done.text).toBe(200);
    clock.advance(30_000);
    return done.body.access_token as string;
  }

  it('adds a teammate with a password (who then signs in) or by an invite mail, and lists the team', async () => {
    const owner = await t.signUp();
    await createOrg(t, owner.token, 'team-add', 'Team Add');
    const admin = await staffLogin(t, 'team-add', owner.email);
    const created = await t.request('POST', `${ORGS}/team-add/staff/team`, {
      token: admin.token,
      body: { email: 'pat@team-add.example', name: 'Pat', role: 'tier2', password: 'pat secret 123' },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      email: 'pat@team-add.example',
      name: 'Pat',
      role: 'tier2',
      org_role: 'member',
      can_sign_in: true,
      mfa_enabled: false,
      last_sign_in_at: null,
      customer_link: null,
      account_created: true,
      invite_sent: false,
    });
    const pat = await staffLogin(t, 'team-add', 'pat@team-add.example', 'pat secret 123');
    const me = await t.request('GET', `${ORGS}/team-add/staff/me`, { token: pat.token });
    expect(me.body.user_id).toBe(created.body.member_id);
    // The same address again is a conflict; bad input names its field.
    const again = await t.request('POST', `${ORGS}/team-add/staff/team`, {
      token: admin.token,
      body: { email: 'pat@team-add.example' },
    });
    expect(again.status).toBe(409);
    const bad = await t.request('POST', `${ORGS}/team-add/staff/team`, {
      token: admin.token,
      body: { email: 'not-an-address', role: 'boss' },
    });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body.detail)).toContain('email');
    // Only admins manage the team.
    const refused = await t.request('POST', `${ORGS}/team-add/staff/team`, {
      token: pat.token,
      body: { email: 'x@team-add.example' },
    });
    expect(refused.status).toBe(403);

    // Invited without a password: a mail with a one-time link; no sign-in until it is used.
    const invited = await t.request('POST', `${ORGS}/team-add/staff/team`, {
      token: admin.token,
      body: { email: 'Sam@team-add.example' },
    });
    expect(invited.status, invited.text).toBe(201);
    expect(invited.body).toMatchObject({ can_sign_in: false, invite_sent: true, role: 'tier1' });
    const mail = await smtp.waitFor((m) => mailTo(m) === 'sam@team-add.example');
    expect(mail.subject).toContain('Team Add');
    expect(mail.text).toContain('/orgs/team-add/staff/auth/login');
    const token = /reset token with your new password: (\S+)/.exec(mail.text ?? '')![1]!;
    const set = await t.request('POST', '/api/v1/auth/reset-password', {
      body: { token, password: 'sam chose this' },
    });
    expect(set.status, set.text).toBe(200);
    expect(
      (await t.request('POST', '/api/v1/auth/reset-password', { body: { token, password: 'twice over' } }))
        .status,
    ).not.toBe(200);
    await staffLogin(t, 'team-add', 'sam@team-add.example', 'sam chose this');

    const detail = await t.request('GET', `${ORGS}/team-add/staff/team/detail`, { token: admin.token });
    expect(detail.status, detail.text).toBe(200);
    const items = detail.body.items as Record<string, unknown>[];
    expect(items.map((i) => i.email)).toEqual([owner.email, 'pat@team-add.example', 'Sam@team-add.example']);
    expect(items[0]).toMatchObject({ role: 'admin', org_role: 'owner', can_sign_in: true });
    expect(items[2]).toMatchObject({ role: 'tier1', can_sign_in: true, mfa_enabled: false });
    for (const item of items) expect(item.last_sign_in_at).toEqual(expect.any(String));
    expect((await t.request('GET', `${ORGS}/team-add/staff/team/detail`, { token: pat.token })).status).toBe(
      403,
    );
  });

  it('resets a teammate’s second factor (ending their sessions), never one’s own nor the owner’s', async () => {
    const owner = await t.signUp();
    const second = await t.signUp();
    const mate = await t.signUp();
    await createOrg(t, owner.token, 'team-mfa');
    await addMember(t, owner.token, 'team-mfa', second.email, 'admin');
    const added = await addMember(t, owner.token, 'team-mfa', mate.email, 'member');
    const secret = await enrol(mate.token);
    const mateStaff = await staffLoginMfa('team-mfa', mate.email, secret);
    const adminStaff = await staffLogin(t, 'team-mfa', second.email);
    const ownerId = await userId(owner.token);
    const selfId = await userId(second.token);
    for (const id of [ownerId, selfId]) {
      const res = await t.request('POST', `${ORGS}/team-mfa/staff/team/${id}/reset-mfa`, {
        token: adminStaff.token,
      });
      expect(res.status, res.text).toBe(403);
    }
    expect((await t.request('GET', `${ORGS}/team-mfa/staff/me`, { token: mateStaff })).status).toBe(200);
    const reset = await t.request('POST', `${ORGS}/team-mfa/staff/team/${added.user_id}/reset-mfa`, {
      token: adminStaff.token,
    });
    expect(reset.status, reset.text).toBe(200);
    expect((await t.request('GET', `${ORGS}/team-mfa/staff/me`, { token: mateStaff })).status).toBe(401);
    // The second factor is gone: a password alone signs in again.
    await staffLogin(t, 'team-mfa', mate.email);
    // Another organization's member is not found.
    const stranger = await t.signUp();
    const other = await t.request(
      'POST',
      `${ORGS}/team-mfa/staff/team/${await userId(stranger.token)}/reset-mfa`,
      {
        token: adminStaff.token,
      },
    );
    expect(other.status).toBe(404);
  });

  it('requires a second factor from the next sign-in, once the acting admin holds one', async () => {
    const owner = await t.signUp();
    const mate = await t.signUp();
    await createOrg(t, owner.token, 'team-policy');
    await addMember(t, owner.token, 'team-policy', mate.email, 'member');
    const before = await staffLogin(t, 'team-policy', mate.email);
    let ownerStaff = await staffLogin(t, 'team-policy', owner.email);
    const url = `${ORGS}/team-policy/staff/team/policy`;
    const no = await t.request('PATCH', url, { token: ownerStaff.token, body: { require_mfa: true } });
    expect(no.status, no.text).toBe(409);
    const secret = await enrol(owner.token);
    ownerStaff = { token: await staffLoginMfa('team-policy', owner.email, secret), refreshToken: '' };
    const on = await t.request('PATCH', url, { token: ownerStaff.token, body: { require_mfa: true } });
    expect(on.status, on.text).toBe(200);
    expect(on.body.require_mfa).toBe(true);
    expect((await t.request('GET', url, { token: ownerStaff.token })).body.require_mfa).toBe(true);

    const detail = `${ORGS}/team-policy/staff/team/detail`;
    // A session opened before stands (the tier-1 teammate meets only the role check).
    const old = await t.request('GET', detail, { token: before.token });
    expect(code(old)).toBe('staff.role_forbidden');
    // The next sign-in without a second factor can only enrol.
    clock.advance(1000);
    const after = await staffLogin(t, 'team-policy', mate.email);
    const limited = await t.request('GET', detail, { token: after.token });
    expect(limited.status).toBe(403);
    expect(code(limited)).toBe('staff.mfa_enrolment_required');
    expect(limited.body.detail.code).toBe('mfa_enrolment_required');
    await enrol(mate.token);
    const enrolled = await t.request('GET', detail, { token: after.token });
    expect(code(enrolled)).toBe('staff.role_forbidden');
    const off = await t.request('PATCH', url, { token: ownerStaff.token, body: { require_mfa: false } });
    expect(off.body).toEqual({ require_mfa: false, require_mfa_since: null });
  });

  it('attaches a customer account only after a recent sign-in or step-up, ending the old account’s sessions', async () => {
    const owner = await t.signUp();
    const mate = await t.signUp();
    await createOrg(t, owner.token, 'team-link');
    await createOrg(t, mate.token, 'team-link-other');
    const added = await addMember(t, owner.token, 'team-link', mate.email, 'member');
    const first = await storefrontCustomer(t, 'team-link', 'first@shop.example');
    const next = await storefrontCustomer(t, 'team-link', 'next@shop.example');
    const foreign = await storefrontCustomer(t, 'team-link-other', 'foreign@shop.example');
    const admin = await staffLogin(t, 'team-link', owner.email);
    const url = `${ORGS}/team-link/staff/team/${added.user_id}/customer-link`;

    const put1 = await t.request('PUT', url, {
      token: admin.token,
      body: { mode: 'separate', customer_id: first.id },
    });
    expect(put1.status, put1.text).toBe(200);
    expect((await t.request('GET', url, { token: admin.token })).body).toEqual({
      member_id: added.user_id,
      mode: 'separate',
      customer_id: first.id,
    });
    clock.advance(11 * 60_000);
    const stale = await t.request('PUT', url, { token: admin.token, body: { customer_id: next.id } });
    expect(stale.status).toBe(403);
    expect(code(stale)).toBe('staff.step_up_required');
    expect(stale.body.detail.code).toBe('step_up_required');
    const step = `${ORGS}/team-link/staff/auth/step-up`;
    expect(
      (await t.request('POST', step, { token: admin.token, body: { password: 'wrong one' } })).status,
    ).toBe(403);
    const stepped = await t.request('POST', step, { token: admin.token, body: { password: PASSWORD } });
    expect(stepped.status, stepped.text).toBe(200);
    // Another organization's customer is not found; same_login needs the teammate's own address.
    expect(
      (await t.request('PUT', url, { token: admin.token, body: { customer_id: foreign.id } })).status,
    ).toBe(404);
    const same = await t.request('PUT', url, {
      token: admin.token,
      body: { mode: 'same_login', customer_id: next.id },
    });
    expect(same.status).toBe(422);
    const me = `${ORGS}/team-link/auth/me`;
    expect((await t.request('GET', me, { token: first.token })).status).toBe(200);
    const put2 = await t.request('PUT', url, { token: admin.token, body: { customer_id: next.id } });
    expect(put2.status, put2.text).toBe(200);
    expect(put2.body).toEqual({ member_id: added.user_id, mode: 'separate', customer_id: next.id });
    expect((await t.request('GET', me, { token: first.token })).status).toBe(401);
    expect((await t.request('GET', me, { token: next.token })).status).toBe(200);

    // Console-only again: the customer account stays and can sign in.
    const del = await t.request('DELETE', url, { token: admin.token });
    expect(del.body).toEqual({ member_id: added.user_id, mode: null, customer_id: null });
    expect((await t.request('GET', me, { token: next.token })).status).toBe(200);
    const bad = await t.request('PUT', url, { token: admin.token, body: { customer_id: 'seven' } });
    expect(bad.status).toBe(422);
  });

  it('ends a teammate’s sessions on revoke-sessions and on removal from the team', async () => {
    const owner = await t.signUp();
    const mate = await t.signUp();
    await createOrg(t, owner.token, 'team-end');
    const added = await addMember(t, owner.token, 'team-end', mate.email, 'member');
    const admin = await staffLogin(t, 'team-end', owner.email);
    const me = `${ORGS}/team-end/staff/me`;
    const s1 = await staffLogin(t, 'team-end', mate.email);
    const revoke = await t.request('POST', `${ORGS}/team-end/staff/team/${added.user_id}/revoke-sessions`, {
      token: admin.token,
    });
    expect(revoke.status, revoke.text).toBe(200);
    expect((await t.request('GET', me, { token: s1.token })).status).toBe(401);
    // The main-site session is not a staff session: it stands.
    expect((await t.request('GET', '/api/v1/auth/me', { token: mate.token })).status).toBe(200);

    const s2 = await staffLogin(t, 'team-end', mate.email);
    const ownerId = await userId(owner.token);
    expect(
      (await t.request('DELETE', `${ORGS}/team-end/staff/team/${ownerId}`, { token: admin.token })).status,
    ).toBe(403);
    const del = await t.request('DELETE', `${ORGS}/team-end/staff/team/${added.user_id}`, {
      token: admin.token,
    });
    expect(del.status, del.text).toBe(200);
    expect((await t.request('GET', me, { token: s2.token })).status).toBe(401);
    const login = await t.request('POST', `${ORGS}/team-end/staff/auth/login`, {
      body: { email: mate.email, password: PASSWORD },
    });
    expect(login.status).toBe(401);
    const detail = await t.request('GET', `${ORGS}/team-end/staff/team/detail`, { token: admin.token });
    expect((detail.body.items as unknown[]).length).toBe(1);
  });
});
