import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Access tokens are stateless: base64url(JSON payload) "." base64url(HMAC-SHA256), checked without
 * a database read. They are never stored. Refresh tokens are random and stored only as digests.
 */
export interface AccessTokenPayload {
  readonly sub: number;
  /** Expiry, seconds since the epoch. */
  readonly exp: number;
  readonly typ: 'access';
}

export class AccessTokens {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(secret, 'utf8');
  }

  issue(userId: number, nowMs: number, ttlSeconds: number): string {
    const payload: AccessTokenPayload = {
      sub: userId,
      exp: Math.floor(nowMs / 1000) + ttlSeconds,
      typ: 'access',
    };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  /** The user id, or null when the token is malformed, forged or expired. */
  verify(token: string, nowMs: number): number | null {
    const dot = token.indexOf('.');
    if (dot <= 0 || dot !== token.lastIndexOf('.')) return null;
    const body = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), 'base64url');
    const expected = Buffer.from(this.sign(body), 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    let payload: Partial<AccessTokenPayload>;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<AccessTokenPayload>;
    } catch {
      return null;
    }
    if (payload.typ !== 'access' || typeof payload.sub !== 'number' || typeof payload.exp !== 'number')
      return null;
    if (payload.exp * 1000 <= nowMs) return null;
    return payload.sub;
  }

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}

export function newRefreshToken(): string {
  return randomBytes(32).toString('base64url');
}

export function digestToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
