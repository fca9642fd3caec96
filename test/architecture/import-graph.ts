import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Reads the project's imports as text: what the architecture tests check. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SRC = path.join(ROOT, 'src');

export function sourceFiles(dir: string, withTests = false): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return entry === 'node_modules' ? [] : sourceFiles(full, withTests);
    if (!full.endsWith('.ts')) return [];
    return withTests || !full.endsWith('.test.ts') ? [full] : [];
  });
}

/** import … from, export … from, side-effect import, import(), and module augmentation. */
const IMPORT_RE =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|(?:^|\n)\s*import\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|declare\s+module\s+['"]([^'"]+)['"]/g;

/** The module specifiers a source text imports, in every form an import can take. */
export function importSpecs(text: string): string[] {
  return [...text.matchAll(IMPORT_RE)].map((m) => (m[1] ?? m[2] ?? m[3] ?? m[4])!);
}

export function importsOf(file: string): string[] {
  return importSpecs(readFileSync(file, 'utf8'));
}

/** Where an import lands: a path relative to src/ for project files, the package name otherwise. */
export function target(file: string, spec: string): string {
  if (spec.startsWith('.')) return path.relative(SRC, path.resolve(path.dirname(file), spec));
  if (spec.startsWith('node:')) return 'node:';
  return spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
}

/** Every import of the files under `area` (relative to src/) that `allowed` refuses, as text. */
export function violations(area: string, allowed: (to: string, from: string) => boolean): string[] {
  return sourceFiles(path.join(SRC, area)).flatMap((file) =>
    importsOf(file)
      .map((spec) => target(file, spec))
      .filter((to) => !allowed(to, path.relative(SRC, file)))
      .map((to) => `${path.relative(ROOT, file)} imports ${to}`),
  );
}

/** The project-internal import graph of `files` (src-relative paths, or keyed by `key`). */
export function importGraph(
  files: readonly string[],
  key: (srcPath: string) => string = (p) => p,
): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const from = key(path.relative(SRC, file));
    for (const spec of importsOf(file)) {
      if (!spec.startsWith('.')) continue;
      const to = key(target(file, spec));
      if (to === from) continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from)!.add(to);
    }
  }
  return graph;
}

/** The cycles of a graph (strongly connected components of more than one node), each sorted. */
export function cycles(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const onStack = new Set<string>();
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    indexOf.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
    }
    if (low.get(v) === indexOf.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indexOf.has(v)) visit(v);
  return found;
}
