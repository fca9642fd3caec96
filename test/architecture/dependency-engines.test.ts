import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

interface LockEntry {
  readonly version?: string;
  readonly engines?: { readonly node?: string } | readonly string[];
}
const root = new URL('../../', import.meta.url);
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as {
  packages: Record<string, LockEntry>;
};
const own = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
  engines: { node: string };
};

/** Every locked package whose declared Node range does not admit `version` (npm's EBADENGINE). */
function refusing(version: string): string[] {
  const out: string[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '') continue;
    const range = Array.isArray(entry.engines) ? undefined : (entry.engines as { node?: string })?.node;
    if (range === undefined) continue;
    if (!semver.satisfies(version, range, { includePrerelease: true })) {
      out.push(`${path.replace(/^.*node_modules\//, '')}@${entry.version} wants node ${range}`);
    }
  }
  return out;
}

// `npm ci` warns (EBADENGINE) for each installed package whose `engines.node` excludes the
// running Node; the lockfile holds those ranges, so the check needs no install.
describe('the locked dependencies', () => {
  it('all admit the oldest Node the project supports', () => {
    const oldest = semver.minVersion(own.engines.node)!.version;
    expect(refusing(oldest)).toEqual([]);
  });

  it('all admit the Node running the tests', () => {
    expect(refusing(process.version)).toEqual([]);
  });

  // package.json pins cookie 1.x under light-my-request (fastify's inject) for the range above.
  it('keep inject sending cookies, encoded, with the pinned cookie library', async () => {
    const app = Fastify();
    app.get('/', async (request) => request.headers.cookie ?? '');
    const res = await app.inject({ url: '/', cookies: { sid: 'a b;c', x: '1' } });
    expect(res.body).toBe('sid=a%20b%3Bc; x=1');
    await app.close();
  });
});
