import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, SRC, sourceFiles } from './import-graph.ts';
import { MODULES_WITHOUT_FIXED_FILES } from './module-exceptions.ts';

/**
 * The module template (docs/architecture.md, "A platform module"), as rules that read the files:
 * every module has the same fixed files at its root and nothing else there but feature folders,
 * SQL only in repositories, views derived from rows. The exceptions kept are named below, each
 * with its reason; an entry that no longer matches anything fails, so the lists only shrink.
 */

const MODULES = path.join(SRC, 'modules');
const moduleNames = readdirSync(MODULES).filter(
  (m) => statSync(path.join(MODULES, m)).isDirectory() && !m.startsWith('_'),
);

/** Files every module has at its root. */
const FIXED = ['index.ts', 'module', 'tables', 'errors', 'context'] as const;
/** Files a module may have at its root besides the fixed ones. */
const OPTIONAL = ['config', 'events', 'interfaces'] as const;

/** Files (src-relative) that hold SQL outside a `*-repository.ts`, and why. */
const SQL_ALLOWED: Readonly<Record<string, string>> = {};

/** Hand-written `*View` types (src-relative file: type name) that show no row, and what they show. */
const VIEWS_NOT_OF_ROWS: Readonly<Record<string, string>> = {
  'modules/staff/team/team-service.ts: TeammateView':
    'a teammate gathered from three modules: membership (orgs), account facts (identity), console row',
  'modules/staff/team/team-service.ts: CustomerLinkView':
    'a teammate’s customer link, null parts included when there is no console row at all',
  'modules/commerce/promotions/promotion-view.ts: PromotionOnCartView':
    'a promotion’s share of one cart’s discount, computed with the cart, never stored',
  'modules/certificates/certificates/certificates-service.ts: RateLimitView':
    'the issuances counted per registered domain in 7 days against the weekly limit',
  'modules/certificates/certificates/certificates-service.ts: CertificateStatusView':
    'whether a name has a certificate (the one the choice rule picks, its view) and its rate limit',
  'modules/certificates/challenges/challenges-service.ts: ChallengeStartView':
    'what to do to answer a challenge by hand: the TXT records or the HTTP-01 file, with the certificate',
  'modules/commerce/documents/document-view.ts: OrderDocumentView':
    'an issued document: its stored JSON snapshot (seller, buyer, lines, totals), not its row',
  'modules/game-servers/servers/server-view.ts: LatestBuildView':
    'the newest build of the server software at its source (Paper), read from the source, not stored',
  'modules/gameproxy/routes/game-routes-service.ts: AvailabilityView':
    'whether a subdomain can be taken under a base domain, and why not',
  'modules/gameproxy/routes/game-routes-service.ts: NameSuggestionsView':
    'a base domain and names free under it, drawn at random',
  'modules/gameproxy/routes/game-routes-service.ts: PolicyView':
    'the deployment’s game proxy settings as the API shows them',
  'modules/platform-domains/platform-domains-service.ts: AvailabilityView':
    'whether a label can be claimed under a suffix, and why not',
  'modules/platform-domains/platform-domains-service.ts: OverviewView':
    'the suffixes offered and their delegation, the caller’s claims, the claim limit',
  'modules/load-balancing/health/health-views.ts: HealthCheckView': 'the result of a probe run now',
  'modules/load-balancing/health/health-views.ts: HealthChangeView':
    'a health change with its columns renamed (from_status → from, to_status → to)',
  'modules/load-balancing/health/health-views.ts: HealthHistoryView': 'a member id with two lists of views',
  'modules/load-balancing/preview/lb-preview-view.ts: PreviewView': 'a steering decision, computed',
  'modules/object-storage/storage/storage-view.ts: RegionView':
    'a configured region: its location’s id, name and country, and the gateway’s public endpoint',
  'modules/object-storage/storage/storage-view.ts: StorageServiceView':
    'a service item with the regions’ endpoints and the plan’s limits, and the overage computed',
  'modules/object-storage/usage/usage-view.ts: UsageView': 'a service id and a span with a list of views',
};

const rootFile = (m: string, role: string): string => (role === 'index.ts' ? role : `${m}-${role}.ts`);
const rel = (file: string): string => path.relative(SRC, file);

/** Query builders and `sql` templates of Kysely: what counts as SQL. */
const SQL_RE =
  /\.(selectFrom|selectNoFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto)\(|\bsql\s*(<[^>\n]*>)?\s*`|\bsql\.(raw|ref|id|lit|join|table|val)\(/;

function moduleFiles(): string[] {
  return sourceFiles(MODULES);
}

describe('architecture: the module template', () => {
  it('gives every module its fixed files: index.ts, <m>-module.ts, -tables, -errors, -context', () => {
    const missing = moduleNames.flatMap((m) =>
      FIXED.map((f) => rootFile(m, f))
        .filter((f) => !existsSync(path.join(MODULES, m, f)))
        .map((f) => `modules/${m}/${f}`),
    );
    const excused = (f: string): boolean =>
      !f.endsWith('/index.ts') && MODULES_WITHOUT_FIXED_FILES[f.split('/')[1]!] !== undefined;
    expect(missing.filter((f) => !excused(f))).toEqual([]);
    const stale = Object.keys(MODULES_WITHOUT_FIXED_FILES).filter(
      (m) => !missing.some((f) => f.startsWith(`modules/${m}/`)),
    );
    expect(stale, 'modules listed without fixed files that have them').toEqual([]);
  });

  it('keeps a module root to its fixed files when the module has feature folders', () => {
    const loose: string[] = [];
    for (const m of moduleNames) {
      const entries = readdirSync(path.join(MODULES, m));
      const folders = entries.filter((e) => statSync(path.join(MODULES, m, e)).isDirectory());
      if (folders.length === 0) continue;
      const allowed = new Set([...FIXED, ...OPTIONAL].map((f) => rootFile(m, f)));
      for (const e of entries) {
        if (folders.includes(e) || allowed.has(e)) continue;
        // Tests of the module as a whole: <m>.test.ts, <m>-<what>.test.ts.
        if (e === `${m}.test.ts` || (e.startsWith(`${m}-`) && e.endsWith('.test.ts'))) continue;
        loose.push(`modules/${m}/${e}`);
      }
    }
    expect(loose).toEqual([]);
  });

  it('keeps a module without feature folders to one feature: one routes, service and repository file', () => {
    const problems: string[] = [];
    for (const m of moduleNames) {
      const entries = readdirSync(path.join(MODULES, m));
      if (entries.some((e) => statSync(path.join(MODULES, m, e)).isDirectory())) continue;
      for (const role of ['routes', 'service', 'repository']) {
        const files = entries.filter((e) => e.endsWith(`-${role}.ts`));
        if (files.length > 1) problems.push(`modules/${m}: ${files.join(', ')} (more than one feature)`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('writes SQL only in *-repository.ts files (or a named exception)', () => {
    const found = moduleFiles()
      .filter((f) => !f.endsWith('-repository.ts') && SQL_RE.test(readFileSync(f, 'utf8')))
      .map(rel);
    expect(found.filter((f) => SQL_ALLOWED[f] === undefined)).toEqual([]);
    expect(Object.keys(SQL_ALLOWED).filter((f) => !found.includes(f))).toEqual([]);
  });

  it('derives response views from their rows (JsonView<>) unless the view shows no row', () => {
    const handWritten: string[] = [];
    for (const file of moduleFiles()) {
      const text = readFileSync(file, 'utf8');
      for (const [, kind, name, rest] of text.matchAll(/export (type|interface) (\w+View)\b([^\n]*)/g)) {
        const derived = kind === 'type' && /^\s*=\s*JsonView</.test(rest!);
        const aliasOfView = kind === 'type' && /^\s*=\s*\w+View\s*;/.test(rest!);
        if (!derived && !aliasOfView) handWritten.push(`${rel(file)}: ${name}`);
      }
    }
    expect(handWritten.filter((v) => VIEWS_NOT_OF_ROWS[v] === undefined)).toEqual([]);
    expect(Object.keys(VIEWS_NOT_OF_ROWS).filter((v) => !handWritten.includes(v))).toEqual([]);
  });

  it('names the context <M>Context, built once by <m>Context(runtime)', () => {
    const problems: string[] = [];
    for (const m of moduleNames) {
      const file = path.join(MODULES, m, `${m}-context.ts`);
      if (!existsSync(file)) continue;
      const pascal = m.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase());
      const camel = pascal[0]!.toLowerCase() + pascal.slice(1);
      const text = readFileSync(file, 'utf8');
      if (!new RegExp(`export type ${pascal}Context\\b`).test(text))
        problems.push(`modules/${m}: no ${pascal}Context type`);
      if (!new RegExp(`export function ${camel}Context\\(`).test(text))
        problems.push(`modules/${m}: no ${camel}Context(runtime)`);
    }
    expect(problems).toEqual([]);
  });

  it('lets only the context file build a module context', () => {
    const builders = moduleFiles()
      .filter((f) => /\bmoduleContext</.test(readFileSync(f, 'utf8')) && !f.endsWith('-context.ts'))
      .map((f) => path.relative(ROOT, f));
    expect(builders).toEqual([]);
  });
});
