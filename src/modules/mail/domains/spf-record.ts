/**
 * SPF records (RFC 7208) as a sending domain needs them: exactly one `v=spf1` TXT record at the
 * domain (§4.5: two are a permanent error at receivers, and so is a record that does not parse,
 * §4.6), holding `include:<MAIL_SPF_INCLUDE>` (§5.2). Our include is put into the holder's record
 * rather than beside it, and taken out again.
 */

/** Whether a TXT text is an SPF record (§4.5: `v=spf1` followed by a space or nothing). */
export const isSpf = (text: string): boolean => /^v=spf1( |$)/i.test(text);

const MECHANISMS = new Set(['all', 'include', 'a', 'mx', 'ptr', 'ip4', 'ip6', 'exists']);
/** Mechanisms whose domain-spec is required (§5.2, §5.7) or absent (§5.1). */
const NEEDS_TARGET = new Set(['include', 'exists', 'ip4', 'ip6']);
const MODIFIER = /^([a-z][a-z0-9_.-]*)=(.*)$/i;
const MECHANISM = /^([+?~-]?)([a-z][a-z0-9_.-]*)(?::([^/]*))?((?:\/\d{1,3}){0,2}(?:\/\/\d{1,3})?)$/i;

/** The first problem of an SPF record's syntax (§4.6, §5, §6), or null when it parses. */
export function spfProblem(text: string): string | null {
  const terms = text.split(' ').filter((t) => t !== '');
  if (terms[0]?.toLowerCase() !== 'v=spf1') return 'it does not start with v=spf1';
  const seen = new Set<string>();
  for (const term of terms.slice(1)) {
    const modifier = MODIFIER.exec(term);
    if (modifier !== null) {
      const name = modifier[1]!.toLowerCase();
      // §6: redirect and exp at most once each; unknown modifiers are ignored.
      if ((name === 'redirect' || name === 'exp') && seen.has(name)) return `"${name}" appears twice`;
      if ((name === 'redirect' || name === 'exp') && modifier[2] === '') return `"${name}" names no domain`;
      seen.add(name);
      continue;
    }
    const mechanism = MECHANISM.exec(term);
    const name = mechanism?.[2]?.toLowerCase();
    if (mechanism === null || name === undefined || !MECHANISMS.has(name))
      return `unknown mechanism "${term}"`;
    const target = mechanism[3];
    if (NEEDS_TARGET.has(name) && (target === undefined || target === '')) return `"${term}" names nothing`;
    if (name === 'all' && (target !== undefined || mechanism[4] !== '')) return `"${term}" takes no argument`;
  }
  return null;
}

/** Whether the record holds `include:<domain>` (any qualifier but `-`, which would exclude it). */
export function includesDomain(text: string, domain: string): boolean {
  const want = domain.toLowerCase().replace(/\.$/, '');
  return text.split(' ').some(
    (t) =>
      /^[+?~]?include:/i.test(t) &&
      t
        .slice(t.indexOf(':') + 1)
        .toLowerCase()
        .replace(/\.$/, '') === want,
  );
}

/** The record with `include:<domain>` put before its `all` mechanism (at the end when it has none). */
export function withInclude(text: string, domain: string): string {
  const terms = text.split(' ').filter((t) => t !== '');
  const all = terms.findIndex((t) => /^[+?~-]?all$/i.test(t));
  const at = all === -1 ? terms.length : all;
  return [...terms.slice(0, at), `include:${domain}`, ...terms.slice(at)].join(' ');
}

/** The record without `include:<domain>`. */
export function withoutInclude(text: string, domain: string): string {
  const want = domain.toLowerCase();
  return text
    .split(' ')
    .filter(
      (t) => t !== '' && !(/^\+?include:/i.test(t) && t.slice(t.indexOf(':') + 1).toLowerCase() === want),
    )
    .join(' ');
}

/** Whether a record holds nothing but its version and an `all` (what is left of one we made). */
export const holdsNothing = (text: string): boolean =>
  text
    .split(' ')
    .filter((t) => t !== '')
    .every((t, i) => (i === 0 ? /^v=spf1$/i.test(t) : /^[+?~-]?all$/i.test(t)));

/** Why the domain's published SPF does not let our relay send (null: it does). */
export function spfReason(texts: readonly string[], include: string): string | null {
  const records = texts.filter(isSpf);
  if (records.length === 0) return 'No SPF record';
  if (records.length > 1) return 'More than one SPF record';
  const problem = spfProblem(records[0]!);
  if (problem !== null) return `The SPF record is not valid: ${problem}`;
  if (!includesDomain(records[0]!, include)) return `The SPF record does not include ${include}`;
  return null;
}
