import { timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../../kernel/clock.ts';
import type { Sealer } from '../../../kernel/crypto/sealing.ts';

/** The HKDF context of the tokens' key: a tag made for anything else never passes here. */
const CONTEXT = 'commerce.order_access';

interface TokenPayload {
  /** Organization id. */
  readonly o: number;
  /** Order id. */
  readonly d: number;
  /** Issued at, seconds since the epoch. */
  readonly t: number;
}

export interface OrderAccess {
  readonly orgId: number;
  readonly orderId: number;
}

const isId = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n > 0;

/**
 * A shopper's key to one order of one organization: base64url(JSON {o, d, t}) "." an HMAC-SHA256
 * tag (hex) under a key derived from the node's sealing key (Sealer.mac, HKDF for this context),
 * so no setting of its own is needed and every API process sharing SEALING_KEY accepts it. It does
 * not expire: it travels in the order link of the shopper's confirmation, which must keep working;
 * it opens one order's read, nothing else, and is never stored.
 */
export class OrderAccessTokens {
  constructor(
    private readonly sealer: Sealer,
    private readonly clock: Clock,
  ) {}

  issue(orgId: number, orderId: number): string {
    const payload: TokenPayload = {
      o: Number(orgId),
      d: Number(orderId),
      t: Math.floor(this.clock.now() / 1000),
    };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.sealer.mac(body, CONTEXT)}`;
  }

  /** The order the token opens, or null when it is malformed or forged. */
  verify(token: string): OrderAccess | null {
    const dot = token.indexOf('.');
    if (dot <= 0 || dot !== token.lastIndexOf('.')) return null;
    const body = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), 'utf8');
    const expected = Buffer.from(this.sealer.mac(body, CONTEXT), 'utf8');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const payload = parse(body);
    return payload !== null && isId(payload.o) && isId(payload.d)
      ? { orgId: payload.o, orderId: payload.d }
      : null;
  }
}

function parse(body: string): Partial<TokenPayload> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null ? (value as Partial<TokenPayload>) : null;
  } catch {
    return null;
  }
}
