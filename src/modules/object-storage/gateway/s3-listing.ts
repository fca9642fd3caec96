/**
 * ListObjectsV2 without the SDK: a SigV4-signed GET over a keep-alive agent, the XML answer read
 * by a scanner that takes only what a listing page shows. The SDK's generic XML deserializer
 * spends more on a page of 1,000 keys than the rest of our request together (bench/storage-listing.ts);
 * this keeps the listing route within a fifth of asking the gateway directly.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { SignatureV4 } from '@smithy/signature-v4';
import { NodeSha256 } from './node-sha256.ts';
import type { S3Credentials } from './storage-gateways.ts';

export interface ListingRequest {
  readonly bucket: string;
  readonly maxKeys: number;
  readonly prefix?: string | undefined;
  readonly delimiter?: string | undefined;
  readonly continuationToken?: string | undefined;
}

/**
 * How a page's entries become what the caller shows, each made straight from the XML: no
 * intermediate object per key. `lastModified` and `etag` are as the gateway wrote them (ISO 8601,
 * the ETag in its quotes).
 */
export interface EntryMaker<T> {
  folder(prefix: string): T;
  object(key: string, size: number, lastModified: string, etag: string): T;
}

/** A page: its folders (common prefixes) first, then its objects, and the next token. */
export interface ListingPage<T> {
  readonly items: T[];
  readonly nextToken: string | null;
}

/** An error answer of the gateway, shaped as the SDK's (s3-failures.ts reads `name` and the status). */
export class S3ListingError extends Error {
  readonly $metadata: { httpStatusCode: number };
  constructor(code: string, status: number) {
    super(`ListObjectsV2: ${status} ${code}`);
    this.name = code;
    this.$metadata = { httpStatusCode: status };
  }
}

const TIMEOUT_MS = 30_000;
const agents = {
  http: new HttpAgent({ keepAlive: true, maxSockets: 64, timeout: TIMEOUT_MS }),
  https: new HttpsAgent({ keepAlive: true, maxSockets: 64, timeout: TIMEOUT_MS }),
};

/** RFC 3986 unreserved characters stay, everything else is %-encoded, as SigV4 canonicalizes. */
const encode = (v: string): string =>
  encodeURIComponent(v).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export class S3Lister {
  /** Signers by access key (a signer keeps its derived signing key). */
  private readonly signers = new Map<string, SignatureV4>();

  constructor(private readonly signingRegion: string) {}

  async list<T>(
    endpoint: string,
    key: S3Credentials,
    r: ListingRequest,
    make: EntryMaker<T>,
  ): Promise<ListingPage<T>> {
    const base = new URL(endpoint);
    const query: Record<string, string> = { 'list-type': '2', 'max-keys': String(r.maxKeys) };
    if (r.prefix !== undefined && r.prefix !== '') query.prefix = r.prefix;
    if (r.delimiter !== undefined) query.delimiter = r.delimiter;
    if (r.continuationToken !== undefined) query['continuation-token'] = r.continuationToken;
    const path = `${base.pathname.replace(/\/+$/, '')}/${encode(r.bucket)}`;
    const search = Object.entries(query)
      .map(([k, v]) => `${encode(k)}=${encode(v)}`)
      .join('&');
    let attempt = 0;
    for (;;) {
      const signed = await this.signer(key).sign({
        method: 'GET',
        protocol: base.protocol,
        hostname: base.hostname,
        ...(base.port !== '' ? { port: Number(base.port) } : {}),
        path,
        query,
        headers: { host: base.host },
      });
      try {
        const { status, body } = await get(base, `${path}?${search}`, signed.headers);
        if (status !== 200) throw new S3ListingError(xmlCode(body) ?? `HTTP${status}`, status);
        return parsePage(body, make);
      } catch (e) {
        // A keep-alive connection the gateway closed meanwhile: once more on a fresh one.
        if (e instanceof S3ListingError || ++attempt > 1) throw e;
      }
    }
  }

  private signer(key: S3Credentials): SignatureV4 {
    let s = this.signers.get(key.accessKey);
    if (s === undefined) {
      s = new SignatureV4({
        service: 's3',
        region: this.signingRegion,
        credentials: { accessKeyId: key.accessKey, secretAccessKey: key.secretKey },
        sha256: NodeSha256,
      });
      if (this.signers.size >= 500) this.signers.delete(this.signers.keys().next().value!);
      this.signers.set(key.accessKey, s);
    }
    return s;
  }
}

function get(
  base: URL,
  pathAndQuery: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  const https = base.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const req = (https ? httpsRequest : httpRequest)(
      {
        protocol: base.protocol,
        hostname: base.hostname,
        port: base.port,
        path: pathAndQuery,
        method: 'GET',
        headers,
        agent: https ? agents.https : agents.http,
        timeout: TIMEOUT_MS,
      },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('ListObjectsV2: timed out')));
    req.on('error', reject);
    req.end();
  });
}

function xmlCode(body: string): string | undefined {
  return /<Code>([^<]+)<\/Code>/.exec(body)?.[1];
}

/** The text of the first `<tag>` in `xml[from, to)`, entities decoded; null when absent. */
function textOf(xml: string, tag: string, from: number, to: number): string | null {
  const open = xml.indexOf(`<${tag}>`, from);
  if (open === -1 || open >= to) return null;
  const start = open + tag.length + 2;
  const end = xml.indexOf(`</${tag}>`, start);
  if (end === -1 || end > to) return null;
  return unescapeXml(xml.slice(start, end));
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeXml(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, e: string) => {
    if (e.startsWith('#x')) return String.fromCodePoint(parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(parseInt(e.slice(1), 10));
    return ENTITIES[e] ?? whole;
  });
}

/** A ListBucketResult: its CommonPrefixes, then its Contents, in the gateway's order, and the next token. */
export function parsePage<T>(xml: string, make: EntryMaker<T>): ListingPage<T> {
  const items: T[] = [];
  for (let at = xml.indexOf('<CommonPrefixes>'); at !== -1; at = xml.indexOf('<CommonPrefixes>', at)) {
    const end = xml.indexOf('</CommonPrefixes>', at);
    if (end === -1) break;
    items.push(make.folder(textOf(xml, 'Prefix', at, end) ?? ''));
    at = end;
  }
  for (let at = xml.indexOf('<Contents>'); at !== -1; at = xml.indexOf('<Contents>', at)) {
    const end = xml.indexOf('</Contents>', at);
    if (end === -1) break;
    items.push(
      make.object(
        textOf(xml, 'Key', at, end) ?? '',
        Number(textOf(xml, 'Size', at, end) ?? 0),
        textOf(xml, 'LastModified', at, end) ?? '',
        textOf(xml, 'ETag', at, end) ?? '',
      ),
    );
    at = end;
  }
  const truncated = textOf(xml, 'IsTruncated', 0, xml.length) === 'true';
  const token = truncated ? textOf(xml, 'NextContinuationToken', 0, xml.length) : null;
  return { items, nextToken: token };
}
