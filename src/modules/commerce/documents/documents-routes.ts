import { Type } from 'typebox';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { idParams } from '../shared/commerce-http-schemas.ts';
import { STOREFRONT } from '../storefront/storefront-info-routes.ts';
import { OrderDocumentsResponse } from './document-view.ts';
import type { DocumentPdf, DocumentsService } from './documents-service.ts';
import { DOCUMENT_NUMBER_PATTERN } from './order-document.ts';

const READ = { auth: { scope: 'commerce.orders:read' } } as const;

const TokenQuery = Type.Object({
  token: Type.Optional(
    Type.String({ maxLength: 512, description: 'the order’s access token (as for the order’s read)' }),
  ),
});

const DocumentParams = Type.Object({
  ...idParams('order_id').properties,
  number: Type.String({
    pattern: DOCUMENT_NUMBER_PATTERN,
    description: '`INV-2026-000001`, `CN-2026-000001`',
  }),
});

const PdfResponse = {
  description: 'The document as a PDF',
  // Bytes, sent as they are: OpenAPI's binary string (not serialized as JSON).
  content: { 'application/pdf': { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) } },
};

/** The disposition of a document's PDF: shown inline, named after its number. */
const disposition = (pdf: DocumentPdf): string => `inline; filename="${pdf.number}.pdf"`;

/**
 * An order's invoice and credit notes (docs/commerce.md, "Order documents"): listed and read as
 * PDFs by the shopper (Store API, the order's access token) and by the shop (Commerce API).
 */
export function registerDocumentRoutes(app: ModuleApp, service: DocumentsService): void {
  const store = '/:org_slug/store/orders/:order_id/documents';
  const commerce = '/:org_slug/commerce/orders/:order_id/documents';
  app.get(
    store,
    {
      config: STOREFRONT,
      schema: {
        summary: 'The invoice and credit notes of an order, opened by its access token',
        description: 'A missing or wrong token, another order’s token and an unknown order all answer 404.',
        params: idParams('order_id'),
        querystring: TokenQuery,
        response: { 200: OrderDocumentsResponse, ...errorResponses(404) },
      },
    },
    async (request) =>
      service.forShopper(
        request.principal,
        request.params.org_slug,
        request.params.order_id,
        request.query.token,
      ),
  );
  app.get(
    `${store}/:number`,
    {
      config: STOREFRONT,
      schema: {
        summary: 'One document of an order as a PDF, opened by the order’s access token',
        params: DocumentParams,
        querystring: TokenQuery,
        response: { 200: PdfResponse, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const { principal, params, query } = request;
      const pdf = await service.pdfForShopper(principal, params.order_id, params.number, query.token);
      return reply.type('application/pdf').header('content-disposition', disposition(pdf)).send(pdf.body);
    },
  );
  app.get(
    commerce,
    {
      config: READ,
      schema: {
        summary: 'The invoice and credit notes of an order',
        params: idParams('order_id'),
        response: { 200: OrderDocumentsResponse },
      },
    },
    async (request) => ({
      documents: await service.forStaff(
        request.principal.orgId!,
        request.params.org_slug,
        request.params.order_id,
      ),
    }),
  );
  app.get(
    `${commerce}/:number`,
    {
      config: READ,
      schema: {
        summary: 'One document of an order as a PDF',
        params: DocumentParams,
        response: { 200: PdfResponse },
      },
    },
    async (request, reply) => {
      const { params } = request;
      const pdf = await service.pdfForStaff(request.principal.orgId!, params.order_id, params.number);
      return reply.type('application/pdf').header('content-disposition', disposition(pdf)).send(pdf.body);
    },
  );
}
