/**
 * Test helper: a throwaway self-signed certificate for 127.0.0.1. Node cannot create X.509
 * certificates itself, so this runs the machine's `openssl` once in a temporary directory.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface KeyAndCert {
  readonly key: string;
  readonly cert: string;
}

export function selfSignedCert(commonName = '127.0.0.1'): KeyAndCert {
  const dir = mkdtempSync(path.join(tmpdir(), 'cert-'));
  try {
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        `/CN=${commonName}`,
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
