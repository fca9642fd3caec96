import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { certificateView } from '../shared/certificate-view.ts';
import { CertificateResponse, DomainParams } from '../shared/certificate-schemas.ts';
import {
  CertificateListResponse,
  CertificatesQuery,
  CertificateStatusResponse,
  CreateCertificateBody,
} from './certificates-schemas.ts';
import type { CertificatesService } from './certificates-service.ts';

/**
 * The SSL certificate routes (docs/certificates.md, "Routes"; base /api/v1/ssl): an account's
 * certificates.
 */
export function registerCertificateRoutes(app: ModuleApp, certificates: CertificatesService): void {
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
}
