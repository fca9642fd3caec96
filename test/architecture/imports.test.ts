import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { cycles, importGraph, sourceFiles, SRC, violations } from './import-graph.ts';

/** A module's door: `modules/<m>/index.ts`. */
const isModuleDoor = (to: string): boolean => /^modules\/[^/]+\/index\.ts$/.test(to);
/** A module's settings door, `modules/<m>/<m>-config.ts`: its config sections and nothing heavier. */
const isSettingsDoor = (to: string): boolean => /^modules\/([^/]+)\/\1-config\.ts$/.test(to);
/** Libraries with no module, node or app in them: the data planes, addresses, geography, health checks. */
const isLibrary = (to: string): boolean => /^(dns|edge|net|geo|health)\//.test(to);

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

  it('keeps node roles between the data planes and the control plane: data planes, libraries, the kernel, modules’ index.ts', () => {
    const ok = (to: string, from: string) => {
      if (!to.includes('/')) return !['fastify', 'kysely', 'pg', 'ioredis'].includes(to);
      const ownFolder = from.split('/').slice(0, 2).join('/');
      const shared = to.startsWith('nodes/shared/'); // what several node roles use (snapshot files)
      return (
        to.startsWith(`${ownFolder}/`) ||
        shared ||
        to.startsWith('kernel/') ||
        isLibrary(to) ||
        isModuleDoor(to)
      );
    };
    expect(violations('nodes', ok)).toEqual([]);
  });

  it('lets nothing but apps/ start a node role: no module, data plane, library or kernel imports nodes/', () => {
    for (const area of ['modules', 'dns', 'edge', 'net', 'geo', 'health', 'kernel', 'testing']) {
      expect(violations(area, (to) => !to.startsWith('nodes/'))).toEqual([]);
    }
  });

  it('keeps apps/ to picking roles and composing: the kernel, modules’ doors and node roles only', () => {
    const ok = (to: string) =>
      !to.includes('/') ||
      to.startsWith('apps/') ||
      to.startsWith('kernel/') ||
      to.startsWith('nodes/') ||
      isModuleDoor(to) ||
      // Only config-sections.ts reads the settings doors (the start reads settings without the modules).
      isSettingsDoor(to);
    expect(violations('apps', ok)).toEqual([]);
  });

  it('has no cycle between the kernel’s folders (events, db, http, module, ...)', () => {
    const folderOf = (p: string) => p.split('/').slice(0, 2).join('/');
    const graph = importGraph(sourceFiles(path.join(SRC, 'kernel')), folderOf);
    for (const [from, tos] of graph) {
      for (const to of [...tos]) if (!to.startsWith('kernel/') || to === from) tos.delete(to);
    }
    expect(cycles(graph)).toEqual([]);
  });
});
