import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ROOT,
  SRC,
  cycles,
  importGraph,
  importSpecs,
  importsOf,
  sourceFiles,
  target,
  violations,
} from './import-graph.ts';
import { MODULES_WITHOUT_FIXED_FILES } from './module-exceptions.ts';

const MODULES = path.join(SRC, 'modules');
const moduleNames = readdirSync(MODULES).filter(
  (m) => statSync(path.join(MODULES, m)).isDirectory() && !m.startsWith('_'),
);

/** `modules/<name>/...` → name, else null. */
function moduleOf(srcPath: string): string | null {
  const m = /^modules\/([^/]+)\//.exec(srcPath);
  return m ? m[1]! : null;
}

/**
 * Test and benchmark files that reach into a module's internals, and which internals: none today.
 * An entry that no longer matches an import fails, so the list only shrinks.
 */
const MODULE_INTERNALS_ALLOWED: Readonly<Record<string, readonly string[]>> = {};

/** Tests and benchmarks: test/, bench/ and the test files inside src/. */
function testAndBenchFiles(): string[] {
  return [
    ...sourceFiles(path.join(ROOT, 'test'), true),
    ...sourceFiles(path.join(ROOT, 'bench'), true),
    ...sourceFiles(SRC, true).filter((f) => f.endsWith('.test.ts')),
  ];
}

describe('architecture: modules meet only at their doors', () => {
  it('lets a module reach another module only through its index.ts', () => {
    expect(
      violations('modules', (to, from) => {
        const other = moduleOf(to);
        return other === null || other === moduleOf(from) || to === `modules/${other}/index.ts`;
      }),
    ).toEqual([]);
  });

  it('lets apps/, testing/ and every other folder reach a module only through its index.ts', () => {
    for (const area of ['apps', 'testing', 'kernel', 'health', 'geo', 'dns']) {
      expect(
        violations(area, (to, from) => {
          const m = moduleOf(to);
          // apps/config-sections.ts alone reads the settings doors, `<m>-config.ts` (below).
          const settings = from === 'apps/config-sections.ts' && to === `modules/${m}/${m}-config.ts`;
          return m === null || to === `modules/${m}/index.ts` || settings;
        }),
      ).toEqual([]);
    }
  });

  it('keeps each settings door (<m>-config.ts) light: it reaches no module factory, route, service or store', () => {
    // What a DNS or edge node evaluates to read its settings: the module's config files only.
    const heavy: string[] = [];
    for (const m of moduleNames) {
      const door = path.join(MODULES, m, `${m}-config.ts`);
      if (!existsSync(door)) continue;
      const seen = new Set<string>();
      const queue = [door];
      while (queue.length > 0) {
        const file = queue.pop()!;
        // Type-only imports are erased: they load nothing.
        const loaded = readFileSync(file, 'utf8').replace(/import type [^;]*;/g, '');
        for (const spec of importSpecs(loaded)) {
          if (!spec.startsWith('.')) continue;
          const to = target(file, spec);
          if (seen.has(to)) continue;
          seen.add(to);
          if (
            to.startsWith('modules/') &&
            (moduleOf(to) !== m || !/-config\.ts$|\/dnssec\/parent-ds-lookup\.ts$/.test(to))
          )
            heavy.push(`modules/${m}/${m}-config.ts reaches ${to}`);
          else if (to.startsWith('modules/') || to.startsWith('geo/')) queue.push(path.join(SRC, to));
        }
      }
    }
    expect(heavy).toEqual([]);
  });

  it('lets tests and benchmarks reach a module only through its index.ts (or a named exception)', () => {
    const reached = new Map<string, string[]>();
    for (const file of testAndBenchFiles()) {
      const own = moduleOf(path.relative(SRC, file));
      for (const spec of importsOf(file)) {
        const to = target(file, spec);
        const other = moduleOf(to);
        if (other === null || other === own || to === `modules/${other}/index.ts`) continue;
        const rel = path.relative(ROOT, file);
        reached.set(rel, [...(reached.get(rel) ?? []), `src/${to}`]);
      }
    }
    const unlisted = [...reached].flatMap(([file, tos]) =>
      tos
        .filter((to) => !(MODULE_INTERNALS_ALLOWED[file] ?? []).includes(to))
        .map((to) => `${file} imports ${to}`),
    );
    const stale = Object.entries(MODULE_INTERNALS_ALLOWED).flatMap(([file, tos]) =>
      tos.filter((to) => !(reached.get(file) ?? []).includes(to)).map((to) => `${file}: ${to}`),
    );
    expect(unlisted, 'internals reached').toEqual([]);
    expect(stale, 'allow-list entries no import needs').toEqual([]);
  });

  it('declares in <m>-interfaces.ts every type another module, a node role or apps/ takes from a module', () => {
    // The types each index.ts exports, and the file each comes from.
    const typeSource = new Map<string, string>();
    for (const m of moduleNames) {
      const text = readFileSync(path.join(MODULES, m, 'index.ts'), 'utf8');
      for (const [, all, names, from] of text.matchAll(/export (type )?\{([^}]*)\} from '\.\/([^']+)'/g)) {
        for (const raw of names!.split(',')) {
          const isType = all !== undefined || raw.trim().startsWith('type ');
          const name = raw.trim().replace(/^type\s+/, '');
          if (isType && name !== '') typeSource.set(`${m}:${name}`, from!);
        }
      }
    }
    const misplaced = new Set<string>();
    for (const area of ['modules', 'nodes', 'apps']) {
      for (const file of sourceFiles(path.join(SRC, area))) {
        const text = readFileSync(file, 'utf8');
        const own = moduleOf(path.relative(SRC, file));
        for (const [, names, spec] of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g)) {
          const m = moduleOf(target(file, spec!));
          if (m === null || m === own || target(file, spec!) !== `modules/${m}/index.ts`) continue;
          for (const raw of names!.split(',')) {
            const name = raw
              .trim()
              .replace(/^type\s+/, '')
              .split(/\s+as\s+/)[0]!;
            const from = typeSource.get(`${m}:${name}`);
            // Factories' own types (<m>-module.ts) and settings (<m>-config.ts) stay where they are made.
            const allowed = [`${m}-interfaces.ts`, `${m}-module.ts`, `${m}-config.ts`];
            if (from !== undefined && !allowed.includes(from)) misplaced.add(`modules/${m}/${from}: ${name}`);
          }
        }
      }
    }
    expect([...misplaced].sort()).toEqual([]);
  });

  it('keeps the kernel free of geo/, health/, dns/, modules/ and apps/', () => {
    const ok = (to: string) => !/^(geo|health|dns|modules|apps|testing)\//.test(to);
    expect(violations('kernel', ok)).toEqual([]);
  });

  it('keeps apps/ a composition root: no SQL, no class, no database library', () => {
    const problems: string[] = [];
    for (const file of sourceFiles(path.join(SRC, 'apps'))) {
      const text = readFileSync(file, 'utf8');
      const rel = path.relative(ROOT, file);
      if (/^\s*(export\s+)?(abstract\s+)?class\s/m.test(text)) problems.push(`${rel} declares a class`);
      if (/\bsql`|\.selectFrom\(|\.insertInto\(|\.updateTable\(|\.deleteFrom\(/.test(text))
        problems.push(`${rel} holds SQL`);
    }
    problems.push(
      ...violations('apps', (to) => !['kysely', 'pg', '@electric-sql/pglite', 'ioredis'].includes(to)),
    );
    expect(problems).toEqual([]);
  });

  it('has no import cycle anywhere in src/ (files), nor between the folders of a module', () => {
    const files = sourceFiles(SRC);
    expect(cycles(importGraph(files))).toEqual([]);
    for (const m of moduleNames) {
      // Folder level inside one module: its subfolders form a layering (the module's own root files,
      // index.ts and <m>-module.ts above all, are left out: they join the subfolders).
      const inModule = sourceFiles(path.join(MODULES, m)).filter(
        (f) => path.dirname(f) !== path.join(MODULES, m),
      );
      const folderOf = (p: string) => path.dirname(p);
      const graph = importGraph(inModule, folderOf);
      for (const [from, tos] of graph) {
        for (const to of [...tos])
          if (!to.startsWith(`modules/${m}/`) || to === `modules/${m}`) tos.delete(to);
        if (!from.startsWith(`modules/${m}/`)) graph.delete(from);
      }
      expect(cycles(graph), `folders of modules/${m}`).toEqual([]);
    }
  });
});

describe('architecture: the module template (src/modules/README.md)', () => {
  it('gives every module its fixed files: index.ts, <m>-module.ts, <m>-tables.ts', () => {
    const missing: string[] = [];
    for (const m of moduleNames) {
      const fixed = MODULES_WITHOUT_FIXED_FILES[m] === undefined ? [`${m}-module.ts`, `${m}-tables.ts`] : [];
      for (const f of ['index.ts', ...fixed]) {
        if (!existsSync(path.join(MODULES, m, f))) missing.push(`modules/${m}/${f}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('prefixes every table with its module name', () => {
    const wrong: string[] = [];
    for (const m of moduleNames) {
      const file = path.join(MODULES, m, `${m}-tables.ts`);
      if (!existsSync(file)) continue;
      const text = readFileSync(file, 'utf8');
      const body = /export interface \w+Tables\s*\{([^}]*)\}/.exec(text)?.[1] ?? '';
      for (const [, table] of body.matchAll(/^\s*([a-z_][a-z0-9_]*)\s*:/gm)) {
        const prefix = m.replaceAll('-', '_');
        if (table !== prefix && !table!.startsWith(`${prefix}_`)) wrong.push(`modules/${m}: table ${table}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('names files <subject>-<role>.ts in kebab case, each name unique in the repository', () => {
    const seen = new Map<string, string>();
    const problems: string[] = [];
    for (const area of ['src', 'test', 'bench']) {
      for (const file of sourceFiles(path.join(ROOT, area), true)) {
        const base = path.basename(file);
        const rel = path.relative(ROOT, file);
        if (base === 'index.ts') continue;
        if (!/^[a-z0-9]+(-[a-z0-9]+)*(\.test|\.bench)?\.ts$/.test(base))
          problems.push(`${rel}: not kebab-case`);
        const before = seen.get(base);
        if (before !== undefined) problems.push(`${rel}: same name as ${before}`);
        seen.set(base, rel);
      }
    }
    expect(problems).toEqual([]);
  });
});
