import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Realm } from './principal.ts';

/**
 * Access tokens are stateless: base64url(JSON payload) "." base64url(HMAC-SHA256), checked without
 * a database read. They are never stored. Refresh tokens are random and stored only as digests.
 * A token names its realm (a token of one realm is refused on every other realm's routes), the
 * organization of a storefront or staff session, and the session it belongs to.
 */
export interface AccessTokenPayload {
  readonly sub: number;
  /** Expiry, seconds since the epoch. */
  readonly exp: number;
  /** Issued at, seconds since the epoch. */
  readonly iat?: number;
  readonly typ: 'access';
  /** Realm; absent in tokens of the first release, which were all main-site tokens. */
  readonly rlm?: Realm;
  /** Organization of a storefront or staff session. */
  readonly org?: number;
  /** Session id. */
  readonly sid?: string;
}

export interface AccessTokenClaims {
  readonly userId: number;
  readonly realm: Realm;
  readonly orgId?: number;
  readonly sessionId?: string;
  /** Issued at, ms since the epoch (0 when the token does not say). */
  readonly issuedAtMs: number;
}

export interface IssueOptions {
  readonly realm?: Realm;
  readonly orgId?: number;
  readonly sessionId?: string;
}

export class AccessTokens {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(secret, 'utf8');
  }

  issue(userId: number, nowMs: number, ttlSeconds: number, options: IssueOptions = {}): string {
    const nowS = Math.floor(nowMs / 1000);
    const payload: AccessTokenPayload = {
      sub: userId,
      exp: nowS + ttlSeconds,
      iat: nowS,
      typ: 'access',
      rlm: options.realm ?? 'main',
      ...(options.orgId !== undefined ? { org: options.orgId } : {}),
      ...(options.sessionId !== undefined ? { sid: options.sessionId } : {}),
    };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  /** The token's claims, or null when it is malformed, forged or expired. */
  verify(token: string, nowMs: number): AccessTokenClaims | null {
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
    return {
      userId: payload.sub,
      realm: payload.rlm ?? 'main',
      ...(typeof payload.org === 'number' ? { orgId: payload.org } : {}),
      ...(typeof payload.sid === 'string' ? { sessionId: payload.sid } : {}),
      issuedAtMs: typeof payload.iat === 'number' ? payload.iat * 1000 : 0,
    };
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
