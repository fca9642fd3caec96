import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../testing/manual-clock.ts';
import { CachedVersionSource, SOURCE_CACHE_MS } from './cached-source.ts';
import {
  SourceUnavailable,
  type FileDigests,
  type SourceVersion,
  type VersionSource,
} from './version-source.ts';

/** A source in memory that counts what it is asked and can be made to fail. */
class CountingSource implements VersionSource {
  readonly name = 'modrinth' as const;
  asked = 0;
  failing = false;
  enabled(): boolean {
    return true;
  }
  async identify(): Promise<Map<FileDigests, SourceVersion>> {
    return new Map();
  }
  async versions(): Promise<SourceVersion[]> {
    this.asked++;
    if (this.failing) throw new SourceUnavailable('modrinth', 'failed', 'Modrinth answered HTTP 503');
    return [];
  }
  async version(): Promise<SourceVersion | null> {
    this.asked++;
    return null;
  }
}

const FILTER = { loaders: ['paper'], gameVersions: ['1.21.1'] };

describe('the per-project cache', () => {
  it('keeps a project’s answer for 10 minutes, per filter, and asks once for calls made together', async () => {
    const clock = new ManualClock();
    const inner = new CountingSource();
    const cached = new CachedVersionSource(inner, clock);
    await Promise.all([cached.versions('P', FILTER), cached.versions('P', FILTER)]);
    expect(inner.asked).toBe(1);
    await cached.versions('P', { loaders: ['paper'], gameVersions: ['1.21.4'] });
    await cached.versions('Q', FILTER);
    expect(inner.asked).toBe(3);
    clock.advance(SOURCE_CACHE_MS - 1);
    await cached.versions('P', { gameVersions: ['1.21.1'], loaders: ['paper'] });
    expect(inner.asked).toBe(3);
    clock.advance(1);
    await cached.versions('P', FILTER);
    expect(inner.asked).toBe(4);
  });

  it('keeps no failure: the next call asks again', async () => {
    const clock = new ManualClock();
    const inner = new CountingSource();
    const cached = new CachedVersionSource(inner, clock);
    inner.failing = true;
    await expect(cached.versions('P', FILTER)).rejects.toBeInstanceOf(SourceUnavailable);
    inner.failing = false;
    await expect(cached.versions('P', FILTER)).resolves.toEqual([]);
    expect(inner.asked).toBe(2);
  });
});
