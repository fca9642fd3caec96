import { createHash } from 'node:crypto';
import type { FileDigests } from '../sources/version-source.ts';
import { curseforgeFingerprint } from './curseforge-fingerprint.ts';

/** A file's digests as the sources look files up (SHA-1, SHA-512, CurseForge's fingerprint). */
export function digestsOf(bytes: Uint8Array): FileDigests {
  return {
    sha1: createHash('sha1').update(bytes).digest('hex'),
    sha512: createHash('sha512').update(bytes).digest('hex'),
    fingerprint: curseforgeFingerprint(bytes),
  };
}
