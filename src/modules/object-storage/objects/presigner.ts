/**
 * SigV4 query-signed URLs (X-Amz-*) for one GET, PUT or DELETE of an object, path-style
 * (`<endpoint>/<bucket>/<key>`), that a browser uses without credentials. One signer per key is
 * kept: its signing-key cache (per day, region and key) spares the four HMACs of each URL.
 */
import { SignatureV4 } from '@smithy/signature-v4';
import type { HttpRequest } from '@smithy/types';
import { NodeSha256 } from '../gateway/node-sha256.ts';
import type { S3Credentials } from '../gateway/storage-gateways.ts';

export type PresignMethod = 'GET' | 'PUT' | 'DELETE';

export interface PresignInput {
  readonly method: PresignMethod;
  /** The public S3 endpoint, e.g. `https://fra.s3.example.com` (a base path is kept). */
  readonly endpoint: string;
  readonly bucket: string;
  readonly key: string;
  readonly expiresIn: number;
  /** Signed as a header: the request must send it with this value. */
  readonly contentType?: string;
  readonly signingDate: Date;
}

export interface PresignedUrl {
  readonly url: string;
  /** Headers the request must send as they are (signed). */
  readonly headers: Record<string, string>;
}

/** At most this many signers are kept (one per key); the oldest goes first. */
const MAX_SIGNERS = 1000;

/** RFC 3986 escaping, as SigV4 canonicalises it (`encodeURIComponent` leaves `!'()*`). */
const escape = (s: string): string =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** An object key in a path: each segment escaped, the slashes kept. */
const escapePath = (key: string): string => key.split('/').map(escape).join('/');

interface Endpoint {
  readonly protocol: string;
  readonly hostname: string;
  readonly port: number | undefined;
  readonly host: string;
  readonly origin: string;
  readonly basePath: string;
}

export class Presigner {
  private readonly signers = new Map<string, SignatureV4>();
  private readonly endpoints = new Map<string, Endpoint>();

  constructor(private readonly signingRegion: string) {}

  async presign(credentials: S3Credentials, input: PresignInput): Promise<PresignedUrl> {
    const ep = this.endpoint(input.endpoint);
    const path = `${ep.basePath}/${escape(input.bucket)}/${escapePath(input.key)}`;
    const headers: Record<string, string> = {
      host: ep.host,
      // Hoisted into the query by the signer: the payload is not part of the signature.
      'x-amz-content-sha256': 'UNSIGNED-PAYLOAD',
    };
    if (input.contentType !== undefined) headers['content-type'] = input.contentType;
    const request: HttpRequest = {
      method: input.method,
      protocol: ep.protocol,
      hostname: ep.hostname,
      ...(ep.port !== undefined ? { port: ep.port } : {}),
      path,
      query: {},
      headers,
    };
    const signed = await this.signer(credentials).presign(request, {
      expiresIn: input.expiresIn,
      signingDate: input.signingDate,
    });
    return {
      url: `${ep.origin}${path}?${queryString(signed.query)}`,
      headers: input.contentType !== undefined ? { 'content-type': input.contentType } : {},
    };
  }

  /** A revoked key's signer goes. */
  forget(accessKey: string): void {
    this.signers.delete(accessKey);
  }

  private signer(credentials: S3Credentials): SignatureV4 {
    let signer = this.signers.get(credentials.accessKey);
    if (signer === undefined) {
      signer = new SignatureV4({
        credentials: { accessKeyId: credentials.accessKey, secretAccessKey: credentials.secretKey },
        region: this.signingRegion,
        service: 's3',
        sha256: NodeSha256,
        // The path is escaped here once, as S3 wants it (not twice).
        uriEscapePath: false,
      });
      if (this.signers.size >= MAX_SIGNERS) this.signers.delete(this.signers.keys().next().value!);
      this.signers.set(credentials.accessKey, signer);
    }
    return signer;
  }

  private endpoint(base: string): Endpoint {
    let ep = this.endpoints.get(base);
    if (ep === undefined) {
      const u = new URL(base);
      ep = {
        protocol: u.protocol,
        hostname: u.hostname,
        port: u.port === '' ? undefined : Number(u.port),
        host: u.host,
        origin: u.origin,
        basePath: u.pathname.replace(/\/+$/, ''),
      };
      this.endpoints.set(base, ep);
    }
    return ep;
  }
}

/** The signed query, sorted and escaped as the signature saw it. */
function queryString(query: HttpRequest['query'] = {}): string {
  return Object.keys(query)
    .sort()
    .map((k) => `${escape(k)}=${escape(String(query[k]))}`)
    .join('&');
}
