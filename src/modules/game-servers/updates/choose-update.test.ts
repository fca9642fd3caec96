import { describe, expect, it } from 'vitest';
import type { SourceVersion, VersionType } from '../sources/version-source.ts';
import { chooseUpdate } from './choose-update.ts';

function build(id: string, day: number, versionType: VersionType): SourceVersion {
  return {
    source: 'modrinth',
    projectId: 'P',
    versionId: id,
    projectName: null,
    name: id,
    versionNumber: id,
    releaseDate: new Date(Date.UTC(2024, 0, day)).toISOString(),
    versionType,
    loaders: ['paper'],
    gameVersions: ['1.21.1'],
    file: { url: `https://cdn.example/${id}.jar`, filename: `${id}.jar`, size: 1, sha1: null, sha512: null },
  };
}

const CURRENT = build('current', 10, 'release');

describe('chooseUpdate', () => {
  const cases: {
    name: string;
    current?: SourceVersion;
    candidates: SourceVersion[];
    includePrerelease: boolean;
    expected: string | null;
  }[] = [
    {
      name: 'a newer release over a still newer beta',
      candidates: [build('r11', 11, 'release'), build('b12', 12, 'beta'), CURRENT],
      includePrerelease: false,
      expected: 'r11',
    },
    {
      name: 'the newest of several newer releases',
      candidates: [build('r11', 11, 'release'), build('r13', 13, 'release'), build('a14', 14, 'alpha')],
      includePrerelease: false,
      expected: 'r13',
    },
    {
      name: 'a newer beta when no newer release exists (an older release does not count)',
      candidates: [build('r05', 5, 'release'), build('b12', 12, 'beta'), build('a13', 13, 'alpha'), CURRENT],
      includePrerelease: false,
      expected: 'b12',
    },
    {
      name: 'a newer alpha when nothing steadier is newer',
      candidates: [build('a12', 12, 'alpha'), CURRENT],
      includePrerelease: false,
      expected: 'a12',
    },
    {
      name: 'with prereleases: the newest build whatever its type',
      candidates: [build('r11', 11, 'release'), build('b12', 12, 'beta'), build('a13', 13, 'alpha')],
      includePrerelease: true,
      expected: 'a13',
    },
    {
      name: 'none when the current build is the newest',
      candidates: [build('r05', 5, 'release'), build('b09', 9, 'beta'), CURRENT],
      includePrerelease: true,
      expected: null,
    },
    {
      name: 'none when there are no candidates',
      candidates: [],
      includePrerelease: false,
      expected: null,
    },
    {
      name: 'a beta installed: a newer release is offered before a newer beta',
      current: build('b10', 10, 'beta'),
      candidates: [build('r11', 11, 'release'), build('b12', 12, 'beta')],
      includePrerelease: false,
      expected: 'r11',
    },
  ];

  for (const c of cases) {
    it(c.name, () => {
      const chosen = chooseUpdate(c.current ?? CURRENT, c.candidates, {
        includePrerelease: c.includePrerelease,
      });
      expect(chosen?.versionId ?? null).toBe(c.expected);
    });
  }
});
