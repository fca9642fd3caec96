import { describe, expect, it } from 'vitest';
import { Sealer } from '../../../kernel/crypto/sealing.ts';
import { openUnsubscribeToken, unsubscribeToken } from '../unsubscribe/unsubscribe-token.ts';
import { queueIdOf, returnPath } from './return-path.ts';

describe('tokens the relay hands out: VERP return paths and unsubscribe links', () => {
  const sealer = new Sealer(Buffer.alloc(32, 3));
  const other = new Sealer(Buffer.alloc(32, 4));

  it('a return path names its queue id with a tag; a changed id, tag or domain names nothing', () => {
    const rp = returnPath(sealer, '0123456789ABCDEF', 'bounces.example.net');
    expect(rp).toMatch(/^bounce\+0123456789abcdef-[0-9a-f]{12}@bounces\.example\.net$/);
    expect(queueIdOf(sealer, rp, 'bounces.example.net')).toBe('0123456789ABCDEF');
    expect(queueIdOf(sealer, rp.toUpperCase(), 'bounces.example.net')).toBe('0123456789ABCDEF');
    expect(queueIdOf(sealer, rp.replace('0123', '1123'), 'bounces.example.net')).toBeNull();
    expect(queueIdOf(sealer, rp, 'other.example.net')).toBeNull();
    expect(queueIdOf(other, rp, 'bounces.example.net')).toBeNull();
    expect(queueIdOf(sealer, 'abuse@bounces.example.net', 'bounces.example.net')).toBeNull();
  });

  it('an unsubscribe token opens to its relay and addressee only under the same key, unaltered', () => {
    const token = unsubscribeToken(sealer, 42, 'Reader@Example.net');
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(token).not.toContain('reader');
    expect(openUnsubscribeToken(sealer, token)).toEqual({ serviceId: 42, address: 'reader@example.net' });
    expect(openUnsubscribeToken(other, token)).toBeNull();
    const altered = token.slice(0, 10) + (token[10] === 'A' ? 'B' : 'A') + token.slice(11);
    expect(openUnsubscribeToken(sealer, altered)).toBeNull();
    expect(openUnsubscribeToken(sealer, 'short')).toBeNull();
    expect(openUnsubscribeToken(sealer, 'not a token at all, with spaces')).toBeNull();
  });
});
