/**
 * The tables of docs/ that the code holds, made from the code: the interfaces modules offer each
 * other (docs/architecture.md) and the per-action budgets with the routes that declare them
 * (docs/keys-and-limits.md). `npm run docs:tables` writes them between their markers
 * (`<!-- generated:<name> -->` ... `<!-- /generated:<name> -->`); test/api/docs-tables.test.ts
 * fails while a page shows other rows than the code.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BudgetRow } from '../src/kernel/limits/budget.ts';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));
const MODULES = path.join(ROOT, 'src', 'modules');

export interface InterfaceRow {
  readonly module: string;
  readonly name: string;
  /** The first sentence of its doc comment. */
  readonly what: string;
  /** Modules, node roles and apps that import it (or `create<Name>`) from the module's index.ts. */
  readonly usedBy: readonly string[];
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return tsFiles(full);
    return full.endsWith('.ts') && !full.endsWith('.test.ts') ? [full] : [];
  });
}

/** Names imported from each module's index.ts, with the area (module, node role, apps) importing them. */
function importsOfModules(): Map<string, Map<string, Set<string>>> {
  const out = new Map<string, Map<string, Set<string>>>();
  const areas = ['modules', 'nodes', 'apps'].map((a) => path.join(ROOT, 'src', a));
  for (const file of areas.flatMap(tsFiles)) {
    const rel = path.relative(path.join(ROOT, 'src'), file).split(path.sep);
    const area = rel[0] === 'apps' ? 'apps' : rel[0] === 'nodes' ? `nodes/${rel[1]}` : rel[1]!;
    const text = readFileSync(file, 'utf8');
    for (const [, names, spec] of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g)) {
      const target = path.resolve(path.dirname(file), spec!);
      const m = /\/src\/modules\/([^/]+)\/index\.ts$/.exec(target);
      if (m === null || m[1] === area) continue;
      const byName = out.get(m[1]!) ?? new Map<string, Set<string>>();
      for (const raw of names!.split(',')) {
        const name = raw
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0]!;
        if (name !== '') byName.set(name, (byName.get(name) ?? new Set()).add(area));
      }
      out.set(m[1]!, byName);
    }
  }
  return out;
}

/** The interfaces and types each module declares in its `<m>-interfaces.ts`, with who uses them. */
export function interfaceRows(): InterfaceRow[] {
  const used = importsOfModules();
  const rows: InterfaceRow[] = [];
  for (const module of readdirSync(MODULES).sort()) {
    const file = path.join(MODULES, module, `${module}-interfaces.ts`);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const declared = /(?:\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*)?export (?:interface|type) (\w+)/g;
    for (const [, doc, name] of text.matchAll(declared)) {
      rows.push({
        module,
        name: name!,
        what: firstSentence(doc ?? ''),
        // Who imports it, or the function that makes one (`create<Name>`).
        usedBy: [
          ...new Set([
            ...(used.get(module)?.get(name!) ?? []),
            ...(used.get(module)?.get(`create${name!}`) ?? []),
          ]),
        ].sort(),
      });
    }
  }
  return rows;
}

function firstSentence(doc: string): string {
  const text = doc
    .split('\n')
    .map((l) => l.replace(/^\s*\*\s?/, '').trim())
    .join(' ')
    .trim();
  const end = text.search(/[.:;](\s|$)/);
  return (end === -1 ? text : text.slice(0, end)).replace(/\|/g, '\\|');
}

/** A markdown table (prettier aligns it when the file is written). */
function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export function interfacesMarkdown(rows: readonly InterfaceRow[]): string {
  return table(
    ['Module', 'Interface', 'What it is', 'Used by'],
    rows.map((r) => [
      `\`${r.module}\``,
      `\`${r.name}\``,
      r.what,
      r.usedBy.length === 0 ? '—' : r.usedBy.map((u) => `\`${u}\``).join(', '),
    ]),
  );
}

function windowText(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? '1 hour' : `${seconds / 3600} hours`;
  if (seconds % 60 === 0) return seconds === 60 ? '1 minute' : `${seconds / 60} minutes`;
  return `${seconds} seconds`;
}

export function budgetsMarkdown(rows: readonly BudgetRow[]): string {
  return table(
    ['Budget', 'Routes', 'Count', 'Window', 'Per'],
    rows.map(({ budget, routes }) => [
      `\`${budget.action}\``,
      routes.map((r) => `\`${r.replace(/:([a-z_]+)/g, '{$1}')}\``).join(', ') +
        (budget.countedBy === 'handler' ? ' (counted by the handler when it applies)' : ''),
      String(budget.count),
      windowText(budget.windowS),
      budget.scope.replaceAll('_', ' '),
    ]),
  );
}

const marker = (name: string) => ({
  open: `<!-- generated:${name} -->`,
  close: `<!-- /generated:${name} -->`,
});

/** What stands between a page's markers for `name`. */
export function section(doc: string, name: string): string {
  const { open, close } = marker(name);
  const a = doc.indexOf(open);
  const b = doc.indexOf(close);
  if (a === -1 || b < a) throw new Error(`no ${open} ... ${close} in the page`);
  return doc.slice(a + open.length, b);
}

export function replaceSection(doc: string, name: string, body: string): string {
  const { open, close } = marker(name);
  const old = section(doc, name);
  return doc.replace(`${open}${old}${close}`, `${open}\n\n${body}\n\n${close}`);
}

/** A table's cells, whitespace and alignment aside: what the test compares. */
export function tableCells(markdown: string): string[][] {
  return markdown
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('|') && !/^\|[\s|:-]+\|$/.test(l))
    .map((l) =>
      l
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim()),
    );
}

/** The pages and what each generated section holds. */
export function generatedSections(
  budgets: readonly BudgetRow[],
): { page: string; name: string; body: string }[] {
  return [
    { page: 'docs/architecture.md', name: 'interfaces', body: interfacesMarkdown(interfaceRows()) },
    { page: 'docs/keys-and-limits.md', name: 'budgets', body: budgetsMarkdown(budgets) },
  ];
}

async function main(): Promise<void> {
  const { startTestApp } = await import('../src/testing/test-app.ts');
  const { budgetTable } = await import('../src/kernel/limits/budget.ts');
  const app = await startTestApp({ env: { ROLE: 'api' } });
  try {
    for (const { page, name, body } of generatedSections(budgetTable(app.node.routes))) {
      const file = path.join(ROOT, page);
      writeFileSync(file, replaceSection(readFileSync(file, 'utf8'), name, body));
      execFileSync('npx', ['prettier', '--write', file], { cwd: ROOT, stdio: 'ignore' });
      process.stdout.write(`${page}: ${name} written\n`);
    }
  } finally {
    await app.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
