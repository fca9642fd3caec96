/**
 * The game edge is a data plane like src/dns: it imports nothing but itself and Node's own
 * modules (no HTTP framework, no database, no bus client), its floors import only their own or
 * lower ones (codec 0 → routes 1 → connections 2 → server 3), and the rest of the product reaches
 * it through src/edge/index.ts alone.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SRC, sourceFiles, importsOf, target, violations } from './import-graph.ts';

const FLOORS: Readonly<Record<string, number>> = { codec: 0, routes: 1, connections: 2, server: 3 };
const floorOf = (srcPath: string): number | undefined => FLOORS[srcPath.split(path.sep)[1] ?? ''];

describe('architecture: the game edge data plane', () => {
  it('imports only itself and node: modules', () => {
    expect(violations('edge', (to) => to === 'node:' || to.startsWith(`edge${path.sep}`))).toEqual([]);
  });

  it('keeps its floors: each folder imports its own floor or lower ones', () => {
    const wrong = sourceFiles(path.join(SRC, 'edge')).flatMap((file) => {
      const from = path.relative(SRC, file);
      const mine = floorOf(from);
      if (mine === undefined) return [];
      return importsOf(file)
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => target(file, spec))
        .filter((to) => (floorOf(to) ?? Infinity) > mine)
        .map((to) => `${from} imports ${to}`);
    });
    expect(wrong).toEqual([]);
  });

  it('is reached from outside through src/edge/index.ts only', () => {
    const outside = sourceFiles(SRC, true).filter(
      (f) => !path.relative(SRC, f).startsWith(`edge${path.sep}`),
    );
    const deep = outside.flatMap((file) =>
      importsOf(file)
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => target(file, spec))
        .filter((to) => to.startsWith(`edge${path.sep}`) && to !== path.join('edge', 'index.ts'))
        .map((to) => `${path.relative(SRC, file)} imports ${to}`),
    );
    expect(deep).toEqual([]);
  });
});
