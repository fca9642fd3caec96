import { errorResponses } from '../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../kernel/module/platform-module.ts';
import { certificateView } from './certificate-view.ts';
import type { ChallengesService } from './challenges/challenges-service.ts';
import {
  CertificateListResponse,
  CertificateResponse,
  CertificatesQuery,
  CertificateStatusResponse,
  ChallengeStartResponse,
  ChallengeStatusResponse,
  CreateCertificateBody,
  DomainParams,
  StartChallengeBody,
} from './certificates-schemas.ts';
import type { CertificatesService } from './certificates/certificates-service.ts';

/** The SSL routes (seed "SSL", base /api/v1/ssl): an account's certificates and challenges. */
export function registerCertificateRoutes(
  app: ModuleApp,
  certificates: CertificatesService,
  challenges: ChallengesService,
): void {
  app.get(
    '/certificates',
    {
      schema: {
        description: 'The caller’s certificates, newest first (by id).',
        querystring: CertificatesQuery,
        response: { 200: CertificateListResponse },
      },
    },
    async (request) => certificates.list(await request.owner(), request.query.page, request.query.per_page),
  );
  app.post(
    '/certificates',
    {
      schema: {
        description:
          'Requests a certificate; issuance runs in the background (status pending → validating → issued, or failed).',
        body: CreateCertificateBody,
        response: { 202: CertificateResponse, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) =>
      reply.code(202).send(certificateView(await certificates.request(await request.owner(), request.body))),
  );
  app.delete(
    '/certificates/:domain',
    {
      schema: {
        description: 'Revokes an issued certificate at its CA, else stops its order; status revoked.',
        params: DomainParams,
        response: { 200: CertificateResponse, ...errorResponses(404, 502) },
      },
    },
    async (request) =>
      certificateView(await certificates.revoke(await request.owner(), request.params.domain)),
  );
  app.post(
    '/certificates/:domain/renew',
    {
      schema: {
        params: DomainParams,
        response: { 202: CertificateResponse, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(certificateView(await certificates.renew(await request.owner(), request.params.domain))),
  );
  app.get(
    '/certificates/:domain/status',
    { schema: { params: DomainParams, response: { 200: CertificateStatusResponse } } },
    async (request) => certificates.status(await request.owner(), request.params.domain),
  );
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
