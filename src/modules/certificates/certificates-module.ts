import type { OwnerScope } from '../../kernel/auth/owner-scope.ts';
import { AppError } from '../../kernel/errors/app-error.ts';
import type { PlatformModule } from '../../kernel/module/platform-module.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import type { ManagedRecords } from '../dns/index.ts';
import { AcmeClients, configureAcmeHttp } from './acme/acme-clients.ts';
import { certificatesContext } from './certificates-context.ts';
import type { Certificates } from './certificates-interfaces.ts';
import { CertificatesRepository } from './shared/certificates-repository.ts';
import { registerCertificateRoutes } from './certificates/certificates-routes.ts';
import { CertificatesService } from './certificates/certificates-service.ts';
import { registerChallengeRoutes } from './challenges/challenges-routes.ts';
import { ChallengesService } from './challenges/challenges-service.ts';
import { Http01Listener } from './http01/http01-listener.ts';
import { ChallengeRecords } from './issuance/challenge-records.ts';
import { IssuanceEngine } from './issuance/issuance-engine.ts';
import { ResolutionChecks } from './issuance/resolution-checks.ts';

export interface CertificatesModule extends PlatformModule {
  /** Certificates for other modules (platform domains' wildcard certificates). */
  readonly certificates: Certificates;
  /** The background engine (tests run its rounds by hand after moving the clock). */
  readonly engine: IssuanceEngine;
  /** The HTTP-01 listener's port once started (null: off, or could not bind). */
  httpPort(): number | null;
  /** The HTTP-01 listener's address once started (ACME_HTTP_HOST, by default API_HOST). */
  httpAddress(): { host: string; port: number } | null;
}

const accountScope = (userId: number): OwnerScope => ({ userId, orgRoles: new Map() });

/**
 * Certificates over ACME (base /api/v1/ssl): requested by account holders, proven by DNS-01
 * through our own DNS engine (managed TXT records), by HTTP-01 on our listener, or by a TXT record
 * the user publishes elsewhere; issued, renewed, revoked in the background across providers.
 */
export function createCertificatesModule(
  runtime: Runtime,
  deps: { readonly dns: ManagedRecords },
): CertificatesModule {
  const ctx = certificatesContext(runtime);
  configureAcmeHttp(ctx.settings.caFile);
  const repo = new CertificatesRepository(ctx.db);
  const clients = new AcmeClients(ctx);
  const checks = new ResolutionChecks(ctx.settings.checkResolver);
  const engine = new IssuanceEngine(ctx, repo, clients, checks, new ChallengeRecords(deps.dns, repo));
  const service = new CertificatesService(ctx, repo, deps.dns, clients, engine);
  const challenges = new ChallengesService(ctx, repo, service, engine, checks);
  const listener = new Http01Listener(repo, ctx.log);
  let httpAddress: { host: string; port: number } | null = null;

  const certificates: Certificates = {
    async request(userId, domain) {
      const owner = accountScope(userId);
      try {
        return (await service.request(owner, { domain, challenge_method: 'dns_automatic' })).status;
      } catch (error) {
        // Already requested or issued: that one stands.
        if (error instanceof AppError && error.status === 409)
          return (await service.latest(owner, domain)).status;
        throw error;
      }
    },
    async statusOf(userId, domain) {
      try {
        return (await service.latest(accountScope(userId), domain)).status;
      } catch (error) {
        if (error instanceof AppError && error.status === 404) return null;
        throw error;
      }
    },
    async revoke(userId, domain) {
      try {
        await service.revoke(accountScope(userId), domain);
      } catch (error) {
        if (!(error instanceof AppError && error.status === 404)) throw error;
      }
    },
  };

  return {
    name: 'certificates',
    prefix: '/ssl',
    certificates,
    engine,
    httpPort: () => httpAddress?.port ?? null,
    httpAddress: () => httpAddress,
    routes(app) {
      registerCertificateRoutes(app, service);
      registerChallengeRoutes(app, challenges);
    },
    async start() {
      if (ctx.settings.httpPort !== 0) {
        httpAddress = await listener.start(ctx.settings.httpHost, ctx.settings.httpPort);
      }
      engine.start();
    },
    async stop() {
      await engine.stop();
      await listener.stop();
      httpAddress = null;
    },
  };
}
