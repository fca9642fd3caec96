import { describe, expect, it } from 'vitest';
import { violations } from './import-graph.ts';

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
