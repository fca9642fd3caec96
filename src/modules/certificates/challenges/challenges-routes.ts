import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { certificateView } from '../shared/certificate-view.ts';
import { CertificateResponse, DomainParams } from '../shared/certificate-schemas.ts';
import { ChallengeStartResponse, ChallengeStatusResponse, StartChallengeBody } from './challenges-schemas.ts';
import type { ChallengesService } from './challenges-service.ts';

/**
 * The SSL challenge routes (docs/certificates.md, "Challenges"; base /api/v1/ssl): challenges
 * answered by hand, their checks.
 */
export function registerChallengeRoutes(app: ModuleApp, challenges: ChallengesService): void {
  app.post(
    '/challenges/start',
    {
      schema: {
        description:
          'Starts (or shows again) the challenge of a certificate answered by hand: a TXT record to publish (dns_manual), one published in your zone here (dns_automatic), or a file the HTTP-01 listener serves (http).',
        body: StartChallengeBody,
        response: { 201: ChallengeStartResponse, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await challenges.start(await request.owner(), request.body.domain, request.body.method)),
  );
  app.post(
    '/challenges/:domain/complete',
    {
      schema: {
        params: DomainParams,
        response: { 202: CertificateResponse, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(certificateView(await challenges.complete(await request.owner(), request.params.domain))),
  );
  app.get(
    '/challenges/:domain/status',
    {
      schema: {
        description:
          'The real-time checks, in a fixed order: each TXT record, the address check, then the certificate.',
        params: DomainParams,
        response: { 200: ChallengeStatusResponse, ...errorResponses(404) },
      },
    },
    async (request) => challenges.status(await request.owner(), request.params.domain),
  );
}
