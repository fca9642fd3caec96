import { describe, expect, it } from 'vitest';
import { holdsNothing, spfProblem, spfReason, withInclude, withoutInclude } from './spf-record.ts';

const OURS = '_spf.relay.test';

describe('SPF records (RFC 7208)', () => {
  it('puts our include before the all mechanism, or at the end, and takes it out again', () => {
    expect(withInclude('v=spf1 ip4:192.0.2.1 mx -all', OURS)).toBe(
      `v=spf1 ip4:192.0.2.1 mx include:${OURS} -all`,
    );
    expect(withInclude('v=spf1 a redirect=_spf.example.com', OURS)).toBe(
      `v=spf1 a redirect=_spf.example.com include:${OURS}`,
    );
    expect(withoutInclude(`v=spf1 ip4:192.0.2.1 mx include:${OURS} -all`, OURS)).toBe(
      'v=spf1 ip4:192.0.2.1 mx -all',
    );
    expect(holdsNothing(withoutInclude(`v=spf1 include:${OURS} ~all`, OURS))).toBe(true);
    expect(holdsNothing('v=spf1 mx ~all')).toBe(false);
  });

  it('finds what receivers would call a permanent error (§4.6, §6)', () => {
    for (const ok of [
      'v=spf1 -all',
      'v=spf1 ip4:198.51.100.0/24 ip6:2001:db8::/32 a/24//64 mx:mail.example.com ?include:x.example exists:%{i}.x.example ~all',
      'v=spf1 redirect=_spf.example.com exp=explain.example.com unknown-mod=1',
    ])
      expect(spfProblem(ok), ok).toBeNull();
    expect(spfProblem('v=spf1 frobnicate -all')).toBe('unknown mechanism "frobnicate"');
    expect(spfProblem('v=spf1 include: -all')).toBe('"include:" names nothing');
    expect(spfProblem('v=spf1 redirect=a.example redirect=b.example')).toBe('"redirect" appears twice');
    expect(spfProblem('v=spf1 all:x.example')).toBe('"all:x.example" takes no argument');
  });

  it('says why the published SPF does not let us send', () => {
    expect(spfReason(['google-site-verification=x'], OURS)).toBe('No SPF record');
    expect(spfReason([`v=spf1 include:${OURS} ~all`, 'v=spf1 mx -all'], OURS)).toBe(
      'More than one SPF record',
    );
    expect(spfReason(['v=spf1 mx -all'], OURS)).toBe(`The SPF record does not include ${OURS}`);
    expect(spfReason([`v=spf1 -include:${OURS} ~all`], OURS)).toBe(`The SPF record does not include ${OURS}`);
    expect(spfReason([`v=spf1 include:${OURS} bogus ~all`], OURS)).toBe(
      'The SPF record is not valid: unknown mechanism "bogus"',
    );
    expect(spfReason([`V=SPF1 include:${OURS.toUpperCase()}. ~all`], OURS)).toBeNull();
  });
});
