import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAcme, startAcmeApp, waitForCertificate, type AcmeFixture } from '../../testing/acme-fixture.ts';
import { createZone, ZONES } from '../../testing/dns-api-fixture.ts';
import { eventually } from '../../testing/eventually.ts';
import { freePort } from '../../testing/free-port.ts';
import { ManualClock } from '../../testing/manual-clock.ts';
import type { TestApp } from '../../testing/test-app.ts';

const SSL = '/api/v1/ssl';

interface Row {
  id: number;
  job_step: string | null;
  order_url: string | null;
  status: string;
}

describe('provider failover, and orders that outlive the process', () => {
  let acme: AcmeFixture;
  let t: TestApp;
  let email: string;
  let token: string;
  const clock = new ManualClock(Date.now());
  const logs: string[] = [];
  const row = async (app: TestApp, domain: string): Promise<Row> =>
    (await app.node.runtime.database.db
      .selectFrom('certificates_certs' as never)
      .selectAll()
      .where('domain' as never, '=', domain as never)
      .executeTakeFirstOrThrow()) as Row;

  beforeAll(async () => {
    // First a CA that is not there, then one that refuses us an account, then one that works.
    acme = await startAcme(['refusing', 'pebble'], ['refusing']);
    const dead = await freePort();
    t = await startAcmeApp(acme, {
      clock,
      persistent: true,
      env: { ACME_PROVIDERS: `down=https://127.0.0.1:${dead}/dir,${acme.env.ACME_PROVIDERS!}` },
    });
    ({ email, token } = await t.signUp());
    const zone = await createZone(t, token, 'fail.example');
    for (const name of ['@', 'a', 'b']) {
      const res = await t.request('POST', `${ZONES}/${zone.id}/records`, {
        token,
        body: { name, type: 'A', content: '127.0.0.1' },
      });
      expect(res.status).toBe(201);
    }
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await acme?.close();
  });

  it('fails over from a CA that is down and one that refuses, to one that issues', async () => {
    const res = await t.request('POST', `${SSL}/certificates`, { token, body: { domain: 'a.fail.example' } });
    expect(res.status, res.text).toBe(202);
    const cert = await waitForCertificate(t, token, 'a.fail.example');
    expect(cert).toMatchObject({
      status: 'issued',
      issuer: 'pebble',
      failover_from: ['down', 'refusing'],
      requested_provider: null,
      error_message: null,
    });
  }, 90_000);

  it('starts with the provider asked for; an unknown one is 422', async () => {
    const unknown = await t.request('POST', `${SSL}/certificates`, {
      token,
      body: { domain: 'b.fail.example', provider: 'nowhere' },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual({ detail: 'Unknown certificate provider: nowhere' });
    const res = await t.request('POST', `${SSL}/certificates`, {
      token,
      body: { domain: 'b.fail.example', provider: 'pebble' },
    });
    expect(res.status).toBe(202);
    expect(await waitForCertificate(t, token, 'b.fail.example')).toMatchObject({
      status: 'issued',
      issuer: 'pebble',
      requested_provider: 'pebble',
      failover_from: [],
    });
  }, 90_000);

  it('fails without asking a CA when an http name does not point here', async () => {
    const res = await t.request('POST', `${SSL}/certificates`, {
      token,
      body: { domain: 'nowhere.fail.example', challenge_method: 'http' },
    });
    expect(res.status).toBe(202);
    const cert = await waitForCertificate(t, token, 'nowhere.fail.example');
    expect(cert.status).toBe('failed');
    expect(cert.error_message).toContain('nowhere.fail.example does not resolve to this server (127.0.0.1)');
  }, 90_000);

  it('a restart in the middle of an order takes it up where it was', async () => {
    const res = await t.request('POST', `${SSL}/certificates`, {
      token,
      body: { domain: 'fail.example', provider: 'pebble' },
    });
    expect(res.status).toBe(202);
    // Stop the process once the order is at the CA (its URL saved), before it is issued.
    let before: Row = await row(t, 'fail.example');
    for (let i = 0; i < 500 && (before.order_url === null || before.job_step === null); i++) {
      await new Promise((r) => setTimeout(r, 5));
      before = await row(t, 'fail.example');
    }
    expect(before.order_url).not.toBeNull();
    t = await t.restart({ env: { LOG_LEVEL: 'debug' }, logSink: (line) => logs.push(line) });
    const stopped = await row(t, 'fail.example');
    // The old process may have stopped in a timed wait (DNS propagation, polling the order), which
    // it saved as a time on the module's clock: let that time pass, as it would on a real clock.
    clock.advance(5_000);
    token = await t.signIn(email);
    const cert = await waitForCertificate(t, token, 'fail.example');
    expect(cert).toMatchObject({ status: 'issued', issuer: 'pebble' });
    // The old process stopped between two steps of the order; the new one's first step is the
    // one it saved, on the same order.
    expect(stopped.job_step).not.toBeNull();
    expect(stopped.job_step).not.toBe('order');
    expect(stopped.order_url).toBe(before.order_url);
    const steps = logs
      .map((l) => JSON.parse(l) as { msg: string; certificate?: number; step?: string })
      .filter((l) => l.msg === 'certificate step' && l.certificate === stopped.id);
    expect(steps[0]?.step).toBe(stopped.job_step);
  }, 90_000);

  it('a job held by a process that died waits for its lease, then another process takes it', async () => {
    const res = await t.request('POST', `${SSL}/challenges/start`, {
      token,
      body: { domain: 'www.fail.example', method: 'dns_manual' },
    });
    expect(res.status, res.text).toBe(201);
    // The user completes; a process that has since died claimed the job a moment ago.
    const zone = (await t.request('GET', `${ZONES}?per_page=10`, { token })).body[0];
    expect(
      (
        await t.request('POST', `${ZONES}/${zone.id}/records`, {
          token,
          body: { name: '_acme-challenge.www', type: 'TXT', content: `"${res.body.record.content}"` },
        })
      ).status,
    ).toBe(201);
    const id = res.body.certificate.id as number;
    await t.node.runtime.database.db
      .updateTable('certificates_certs' as never)
      .set({ claimed_by: 'dead-process', lease_until: new Date(clock.now() + 60_000) } as never)
      .where('id' as never, '=', id as never)
      .execute();
    // The record reaches the DNS node a moment after it commits (the bus): until then, complete
    // answers 409 (the TXT is not seen yet) and changes nothing.
    await eventually(async () =>
      expect((await t.request('POST', `${SSL}/challenges/www.fail.example/complete`, { token })).status).toBe(
        202,
      ),
    );
    await new Promise((r) => setTimeout(r, 1500));
    expect((await row(t, 'www.fail.example')).status).toBe('pending');
    clock.advance(61_000);
    expect(await waitForCertificate(t, token, 'www.fail.example')).toMatchObject({ status: 'issued' });
  }, 90_000);
});
