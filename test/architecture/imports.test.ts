import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = path.join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return full.endsWith('.ts') && !full.endsWith('.test.ts') ? [full] : [];
  });
}

const IMPORT_RE =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT_RE)].map((m) => (m[1] ?? m[2])!);
}

/** Where an import lands: a path relative to src/ for project files, the package name otherwise. */
function target(file: string, spec: string): string {
  if (spec.startsWith('.')) return path.relative(SRC, path.resolve(path.dirname(file), spec));
  if (spec.startsWith('node:')) return 'node:';
  return spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
}

function violations(area: string, allowed: (to: string) => boolean): string[] {
  return sourceFiles(path.join(SRC, area)).flatMap((file) =>
    importsOf(file)
      .map((spec) => target(file, spec))
      .filter((to) => !allowed(to))
      .map((to) => `${path.relative(ROOT, file)} imports ${to}`),
  );
}

describe('architecture: dependency direction', () => {
  it('keeps the data plane free of HTTP, database, Redis and logging code', () => {
    const ok = (to: string) =>
      to === 'node:' ||
      to === 'dns-packet' ||
      to.startsWith('dns/') ||
      to.startsWith('geo/') ||
      to.startsWith('net/');
    expect(violations('dns', ok)).toEqual([]);
  });

  it('keeps net/ (addresses and their classes) a pure library the data plane and the kernel share', () => {
    expect(violations('net', (to) => to === 'node:' || to.startsWith('net/'))).toEqual([]);
  });

  it('keeps geography a pure library', () => {
    expect(violations('geo', (to) => to === 'node:' || to === 'maxmind' || to.startsWith('geo/'))).toEqual(
      [],
    );
  });

  it('keeps the kernel below everything else in src/', () => {
    const ok = (to: string) =>
      !to.startsWith('modules/') && !to.startsWith('apps/') && !to.startsWith('dns/');
    expect(violations('kernel', ok)).toEqual([]);
  });

  it('keeps the health checker a library: no modules, apps or data plane (they pass in what it needs)', () => {
    const ok = (to: string) =>
      !to.startsWith('modules/') && !to.startsWith('apps/') && !to.startsWith('dns/');
    expect(violations('health', ok)).toEqual([]);
  });

  it('lets only apps/ wire modules together', () => {
    expect(violations('modules', (to) => !to.startsWith('apps/'))).toEqual([]);
  });
});
