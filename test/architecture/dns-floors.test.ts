/**
 * The data plane's floors and its one public surface, read from the import statements as text
 * (as imports.test.ts does):
 * - inside src/dns each library file imports only its own floor or lower ones, and the three
 *   feature folders of floor 3 not each other: wire/ (0) → zonefile/ (1) → zone/ (2) →
 *   steering/ dnssec/ transfer/ (3) → answer/ (4) → server/ (5); index.ts is above them all and
 *   nothing in src/dns imports it;
 * - no import cycles among the library files of src/dns;
 * - outside src/dns (src/, bench/, test/) only src/dns/index.ts is imported, but for the few
 *   benchmark internals listed in INTERNALS_ALLOWED.
 * Test files inside src/dns are not library code: they may use higher floors to drive what they
 * test (a zone test answering through handle-message), so the floor and cycle rules skip them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importSpecs } from './import-graph.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DNS = path.join(ROOT, 'src', 'dns');
const INDEX = path.join(DNS, 'index.ts');

/** Floor of each top folder of src/dns. */
const FLOORS: Readonly<Record<string, number>> = {
  wire: 0,
  zonefile: 1,
  zone: 2,
  steering: 3,
  dnssec: 3,
  transfer: 3,
  answer: 4,
  server: 5,
};

/**
 * Outside files that may import data-plane internals, and which: the micro benchmark's stage cases
 * time query parsing, the answer pipeline and the response writer one at a time, which makes no
 * sense as public API.
 */
const INTERNALS_ALLOWED: Readonly<Record<string, readonly string[]>> = {
  'bench/micro-suite.ts': [
    'src/dns/answer/answer-plan.ts',
    'src/dns/answer/answer-stages.ts',
    'src/dns/server/handle-message.ts',
    'src/dns/wire/message/message-constants.ts',
    'src/dns/wire/message/query-parser.ts',
    'src/dns/wire/message/response-writer.ts',
  ],
};

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    if (entry === 'node_modules' || entry === 'results') return [];
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return tsFiles(full);
    return full.endsWith('.ts') ? [full] : [];
  });
}

/** Relative imports of `file`: the spec as written and the file it lands on. */
function importsOf(file: string): { spec: string; to: string }[] {
  return importSpecs(readFileSync(file, 'utf8'))
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => ({ spec, to: path.resolve(path.dirname(file), spec) }));
}

const rel = (file: string): string => path.relative(ROOT, file).split(path.sep).join('/');
const isTest = (file: string): boolean => file.endsWith('.test.ts');
const inDns = (file: string): boolean => file.startsWith(DNS + path.sep);

/** The top folder of a src/dns file and its floor (undefined: not on a floor). */
function floorOf(file: string): { folder: string; floor: number | undefined } {
  const folder = path.relative(DNS, file).split(path.sep)[0]!;
  return { folder, floor: FLOORS[folder] };
}

/** Library files of src/dns below index.ts. */
function libraryFiles(): string[] {
  return tsFiles(DNS).filter((f) => !isTest(f) && f !== INDEX);
}

function floorViolations(): string[] {
  const out: string[] = [];
  for (const file of libraryFiles()) {
    const from = floorOf(file);
    if (from.floor === undefined) {
      out.push(`${rel(file)} is on no floor (put it in one of ${Object.keys(FLOORS).join(', ')})`);
      continue;
    }
    for (const { spec, to } of importsOf(file)) {
      if (!inDns(to)) continue;
      if (to === INDEX) {
        out.push(`${rel(file)} imports ${spec}: index.ts is the surface for code outside src/dns`);
        continue;
      }
      const target = floorOf(to);
      if (target.floor === undefined) continue; // reported for that file itself
      const where = `${target.folder}/ (floor ${target.floor}) from ${from.folder}/ (floor ${from.floor})`;
      if (target.floor > from.floor) out.push(`${rel(file)} imports ${spec}: ${where} is a higher floor`);
      else if (target.floor === from.floor && target.folder !== from.folder)
        out.push(`${rel(file)} imports ${spec}: ${where}, features of one floor stay apart`);
    }
  }
  return out;
}

/** Every import cycle among the library files, each as the path that closes it. */
function importCycles(): string[] {
  const graph = new Map<string, string[]>();
  for (const file of libraryFiles()) {
    const targets = importsOf(file)
      .map((i) => i.to)
      .filter((to) => inDns(to) && !isTest(to));
    graph.set(file, [...new Set(targets)]);
  }
  const cycles = new Set<string>();
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') {
        cycles.add([...stack.slice(stack.indexOf(next)), next].map(rel).join(' -> '));
      } else if (state.get(next) === undefined) {
        visit(next);
      }
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (state.get(file) === undefined) visit(file);
  return [...cycles];
}

function surfaceViolations(): string[] {
  const outside = ['src', 'bench', 'test'].flatMap((dir) => tsFiles(path.join(ROOT, dir)));
  return outside
    .filter((file) => !inDns(file))
    .flatMap((file) =>
      importsOf(file)
        .filter(({ to }) => inDns(to) && to !== INDEX)
        .filter(({ to }) => !(INTERNALS_ALLOWED[rel(file)] ?? []).includes(rel(to)))
        .map(({ spec }) => `${rel(file)} imports ${spec}: outside src/dns, import src/dns/index.ts`),
    );
}

describe('architecture: data-plane floors and surface', () => {
  it('keeps every src/dns file to its own or lower floors', () => {
    expect(floorViolations()).toEqual([]);
  });

  it('has no import cycles in src/dns', () => {
    expect(importCycles()).toEqual([]);
  });

  it('lets code outside src/dns import only src/dns/index.ts', () => {
    expect(surfaceViolations()).toEqual([]);
  });

  it('allows internals only where they are still used', () => {
    // A stale allow-list entry would let a new internal import in unnoticed.
    const stale = Object.entries(INTERNALS_ALLOWED).flatMap(([file, targets]) => {
      const used = new Set(importsOf(path.join(ROOT, file)).map((i) => rel(i.to)));
      return targets.filter((t) => !used.has(t)).map((t) => `${file}: ${t}`);
    });
    expect(stale).toEqual([]);
  });
});
