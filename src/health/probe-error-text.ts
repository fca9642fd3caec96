/**
 * Turns a failed connection or request into the short `last_error` text users see
 * (`connection refused`, `timeout after 5 s`, `TLS handshake failed: ...`). Never includes
 * stack traces or internal names; unknown failures keep the error's own first line.
 */
const CODE_TEXT: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EADDRNOTAVAIL: 'address not available',
  UND_ERR_SOCKET: 'connection closed',
  UND_ERR_CLOSED: 'connection closed',
};

export function timeoutText(timeoutS: number): string {
  return `timeout after ${timeoutS} s`;
}

interface ErrorLike {
  readonly code?: unknown;
  readonly message?: unknown;
  readonly reason?: unknown;
  readonly cause?: unknown;
}

/** The innermost error with a code: undici wraps socket errors in `cause`. */
function innermost(error: unknown): ErrorLike {
  let current = (error ?? {}) as ErrorLike;
  for (let depth = 0; depth < 5; depth++) {
    const cause = current.cause as ErrorLike | undefined;
    if (cause === undefined || cause === null || typeof cause !== 'object') break;
    current = cause;
  }
  return current;
}

function isTlsError(e: ErrorLike): boolean {
  const code = typeof e.code === 'string' ? e.code : '';
  const message = typeof e.message === 'string' ? e.message : '';
  return (
    code.startsWith('ERR_SSL') ||
    code.startsWith('ERR_TLS') ||
    code.startsWith('CERT_') ||
    /\b(TLS|SSL)\b|tlsv1|handshake/i.test(message)
  );
}

function firstLine(e: ErrorLike): string {
  const text = typeof e.message === 'string' && e.message !== '' ? e.message : String(e.code ?? 'error');
  return text.split('\n')[0]!.slice(0, 200);
}

/** The TLS reason as OpenSSL states it (`wrong version number`), else the message's first line. */
function tlsReason(e: ErrorLike): string {
  const reason = typeof e.reason === 'string' && e.reason !== '' ? e.reason : null;
  if (reason !== null) return reason;
  const m = typeof e.message === 'string' ? /routines:[^:]*:([^\n]+)/.exec(e.message) : null;
  return m ? m[1]!.trim() : firstLine(e);
}

/**
 * `duringTls` says the failure came before the TLS handshake completed: anything but a refused or
 * unreachable connect is then a failed handshake (a peer that resets or closes mid-handshake too).
 */
export function probeErrorText(error: unknown, options: { duringTls: boolean }): string {
  const e = innermost(error);
  const code = typeof e.code === 'string' ? e.code : '';
  if (CONNECT_CODES.has(code)) return CODE_TEXT[code]!;
  if (options.duringTls && (code === 'ECONNRESET' || code === 'EPIPE'))
    return 'TLS handshake failed: connection closed by peer';
  if (options.duringTls || isTlsError(e)) return `TLS handshake failed: ${tlsReason(e)}`;
  return CODE_TEXT[code] ?? firstLine(e);
}

/** Failures of the TCP connect itself, before any TLS byte was exchanged. */
const CONNECT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
]);
