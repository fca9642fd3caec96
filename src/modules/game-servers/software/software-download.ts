/**
 * A job's download of an addon build through the outbound guard: into `.staged/<record>/` under
 * a temporary name, no larger than SOFTWARE_MAX_BYTES, and kept only when its digests are those
 * the source published (SHA-512, else SHA-1).
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { OutboundClient } from '../../../kernel/outbound/guarded-client.ts';
import type { SourceVersion } from '../sources/version-source.ts';

/** How long one download may take in all. */
const DOWNLOAD_TIMEOUT_MS = 300_000;
/** A job still queued or running this long after it was made was cut off (its process stopped). */
export const JOB_STALE_MS = DOWNLOAD_TIMEOUT_MS + 300_000;
/** The file names a build may be saved under (no path, no hidden file). */
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]*\.(jar|zip)$/;

export class DownloadFailed extends Error {}

export function safeFilename(name: string): string {
  if (!SAFE_NAME.test(name) || name.length > 200) throw new DownloadFailed(`unsafe file name: ${name}`);
  return name;
}

/** Downloads `version`'s file into `dir` (made if missing); answers the staged file's path. */
export async function downloadVerified(
  outbound: OutboundClient,
  version: SourceVersion,
  dir: string,
  maxBytes: number,
): Promise<string> {
  const { sha1, sha512 } = version.file;
  if (sha512 === null && sha1 === null)
    throw new DownloadFailed('the source published no digest of the file');
  const name = safeFilename(version.file.filename);
  await mkdir(dir, { recursive: true });
  const part = path.join(dir, `${name}.part`);
  const h1 = createHash('sha1');
  const h512 = createHash('sha512');
  const out = createWriteStream(part);
  try {
    const res = await outbound.download(
      version.file.url,
      (chunk) => {
        h1.update(chunk);
        h512.update(chunk);
        if (!out.write(chunk)) return new Promise<void>((done) => out.once('drain', () => done()));
      },
      { maxBytes, timeoutMs: DOWNLOAD_TIMEOUT_MS },
    );
    await new Promise<void>((done, fail) => out.end((e?: Error | null) => (e ? fail(e) : done())));
    if (res.status !== 200) throw new DownloadFailed(`the file's URL answered ${res.status}`);
    const matches =
      sha512 !== null
        ? h512.digest('hex') === sha512.toLowerCase()
        : h1.digest('hex') === sha1!.toLowerCase();
    if (!matches) throw new DownloadFailed(`digest mismatch: the file is not the one the source published`);
    const staged = path.join(dir, name);
    await rename(part, staged);
    return staged;
  } catch (error) {
    out.destroy();
    await rm(part, { force: true });
    throw error;
  }
}
