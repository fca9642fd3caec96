/**
 * The gateways object storage talks to, per region: the admin ops API (users, keys, quotas, stats,
 * usage) and the S3 API, for our own calls (bucket creation, listing, deletion) and the public
 * endpoint a client is given. Regions sharing one gateway (one admin URL) share its tenant users:
 * a service's users and keys are made once per distinct gateway.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import { s3Sdk } from './s3-sdk.ts';
import { RgwAdminClient } from './rgw-admin-client.ts';

export interface GatewayAccess {
  /** The admin ops API, which is also the S3 API our own calls use. */
  readonly adminUrl: string;
  readonly accessKey: string;
  readonly secretKey: string;
}

/** A region as configured: a location code, its public endpoint, and its gateway. */
export interface RegionGateway {
  readonly code: string;
  readonly name: string | null;
  readonly countryCode: string | null;
  /** The S3 endpoint clients are given (presigned URLs, `endpoint` fields). */
  readonly endpoint: string;
  /** Where our own calls go: the region's gateway (admin ops and S3). */
  readonly internalUrl: string;
  readonly admin: RgwAdminClient;
}

/** An S3 key of a service. */
export interface S3Credentials {
  readonly accessKey: string;
  readonly secretKey: string;
}

// The SDK warns once per process that its releases after January 2027 need Node 22; the version
// is pinned and runs on the Node 20 this product targets, so the warning would only be noise.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/** At most this many S3 clients are kept (one per key and region); the oldest goes first. */
const MAX_CLIENTS = 500;

export class StorageGateways {
  private regions: RegionGateway[] = [];
  private readonly clients = new Map<string, S3Client>();

  constructor(private readonly signingRegion: string) {}

  /** Whether a gateway is configured (object storage products can be ordered). */
  get configured(): boolean {
    return this.regions.length > 0;
  }

  /** Sets the regions once the gateway is known (at start: configured, or the local one started). */
  configure(
    access: GatewayAccess,
    regions: readonly {
      code: string;
      name: string | null;
      countryCode: string | null;
      endpoint: string;
      adminUrl: string | null;
    }[],
  ): void {
    const admins = new Map<string, RgwAdminClient>();
    const adminOf = (url: string): RgwAdminClient => {
      let a = admins.get(url);
      if (a === undefined) {
        a = new RgwAdminClient({
          url,
          accessKey: access.accessKey,
          secretKey: access.secretKey,
          region: this.signingRegion,
        });
        admins.set(url, a);
      }
      return a;
    };
    this.regions = regions.map((r) => {
      const internalUrl = r.adminUrl ?? access.adminUrl;
      return { ...r, internalUrl, admin: adminOf(internalUrl) };
    });
  }

  all(): readonly RegionGateway[] {
    return this.regions;
  }

  region(code: string): RegionGateway | undefined {
    return this.regions.find((r) => r.code === code);
  }

  /** The first region: a service's home when its order named no location. */
  home(): RegionGateway | undefined {
    return this.regions[0];
  }

  /** One region per distinct gateway: where a service's users and keys are made. */
  distinct(): RegionGateway[] {
    const seen = new Set<string>();
    return this.regions.filter((r) => !seen.has(r.internalUrl) && seen.add(r.internalUrl) !== undefined);
  }

  /** An S3 client of a service's key at a region's gateway (path-style, checksums only when required). */
  async s3(region: RegionGateway, key: S3Credentials): Promise<S3Client> {
    const id = `${region.internalUrl} ${key.accessKey}`;
    let client = this.clients.get(id);
    if (client === undefined) {
      const { S3Client } = await s3Sdk();
      client = new S3Client({
        endpoint: region.internalUrl,
        region: this.signingRegion,
        forcePathStyle: true,
        credentials: { accessKeyId: key.accessKey, secretAccessKey: key.secretKey },
        // RGW refuses the SDK's default CRC checksums of streaming uploads.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        maxAttempts: 2,
      });
      if (this.clients.size >= MAX_CLIENTS) {
        const [oldest] = this.clients.keys();
        this.clients.get(oldest!)?.destroy();
        this.clients.delete(oldest!);
      }
      this.clients.set(id, client);
    }
    return client;
  }

  /** A key is revoked: its clients go. */
  forget(accessKey: string): void {
    for (const [id, c] of this.clients)
      if (id.endsWith(` ${accessKey}`)) {
        c.destroy();
        this.clients.delete(id);
      }
  }

  close(): void {
    for (const c of this.clients.values()) c.destroy();
    this.clients.clear();
  }
}
