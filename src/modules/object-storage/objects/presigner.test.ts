/**
 * The presigner's URLs without a gateway: path-style with each key segment escaped once, the
 * X-Amz-* query SigV4 checks, a signed content type as a header, and the same URL for the same
 * input (the cached signer does not change what is signed).
 */
import { describe, expect, it } from 'vitest';
import { Presigner } from './presigner.ts';

const KEY = { accessKey: 'AKIAEXAMPLEEXAMPLE23', secretKey: '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' };
const AT = new Date('2026-11-29T10:00:00Z');

describe('presigner', () => {
  const presigner = new Presigner('us-east-1');
  const input = {
    method: 'GET' as const,
    endpoint: 'https://fra.s3.example.com/',
    bucket: 'photos',
    key: "dir/a b+ü(1)'.txt",
    expiresIn: 900,
    signingDate: AT,
  };

  it('signs a path-style URL with the X-Amz-* query', async () => {
    const { url, headers } = await presigner.presign(KEY, input);
    const u = new URL(url);
    expect(u.origin).toBe('https://fra.s3.example.com');
    expect(u.pathname).toBe('/photos/dir/a%20b%2B%C3%BC%281%29%27.txt');
    expect(Object.fromEntries(u.searchParams)).toMatchObject({
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Credential': `${KEY.accessKey}/20261129/us-east-1/s3/aws4_request`,
      'X-Amz-Date': '20261129T100000Z',
      'X-Amz-Expires': '900',
      'X-Amz-SignedHeaders': 'host',
      'x-amz-content-sha256': 'UNSIGNED-PAYLOAD',
    });
    expect(u.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(headers).toEqual({});
    expect((await presigner.presign(KEY, input)).url).toBe(url);
  });

  it('signs a content type as a header the request must send', async () => {
    const plain = await presigner.presign(KEY, { ...input, method: 'PUT' });
    const typed = await presigner.presign(KEY, { ...input, method: 'PUT', contentType: 'image/png' });
    expect(typed.headers).toEqual({ 'content-type': 'image/png' });
    expect(new URL(typed.url).searchParams.get('X-Amz-SignedHeaders')).toBe('content-type;host');
    expect(new URL(typed.url).searchParams.get('X-Amz-Signature')).not.toBe(
      new URL(plain.url).searchParams.get('X-Amz-Signature'),
    );
  });
});
