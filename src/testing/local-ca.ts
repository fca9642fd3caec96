/**
 * Test helper: a certificate authority of the test's own (made with the machine's openssl) and a
 * server certificate it signed for 127.0.0.1, ::1 and localhost: for local HTTPS servers (webhook
 * receivers, the ACME test CA) that the product trusts only through a CA-file setting.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface LocalCa {
  readonly dir: string;
  /** The CA's certificate (PEM file). */
  readonly caFile: string;
  /** The server's key and certificate (PEM text); files `server.key` and `server.pem` in `dir`. */
  readonly key: string;
  readonly cert: string;
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
}

/** A CA and a server certificate it signed, for 127.0.0.1, ::1 and localhost. */
export function localCa(): LocalCa {
  const dir = mkdtempSync(path.join(tmpdir(), 'local-ca-'));
  openssl(dir, [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=Test Local CA',
  ]);
  openssl(dir, [
    'req',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
    '-subj',
    '/CN=localhost',
  ]);
  writeFileSync(path.join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost\n');
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '2',
    '-extfile',
    'san.ext',
  ]);
  return {
    dir,
    caFile: path.join(dir, 'ca.pem'),
    key: readFileSync(path.join(dir, 'server.key'), 'utf8'),
    cert: readFileSync(path.join(dir, 'server.pem'), 'utf8'),
  };
}
