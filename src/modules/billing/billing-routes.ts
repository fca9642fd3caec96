import { errorResponses } from '../../kernel/http/error-schemas.ts';
import {
  IdempotencyKeyHeader,
  idempotencyKeyOf,
  type IdempotentReplies,
} from '../../kernel/http/idempotency.ts';
import type { ModuleApp } from '../../kernel/module/platform-module.ts';
import { Type } from 'typebox';
import {
  CreditResponse,
  Filter422,
  InvoiceParams,
  InvoiceResponse,
  InvoicesQuery,
  InvoicesResponse,
  PayBody,
  TopUpBody,
  TransactionResponse,
  TransactionsQuery,
  TransactionsResponse,
} from './billing-schemas.ts';
import type { BillingService } from './billing-service.ts';
import type { InvoiceView, TransactionView } from './billing-view.ts';
import type { InvoicePdfs } from './invoice-pdf.ts';

const PdfResponse = {
  description: 'The invoice as a PDF document',
  // Bytes, sent as they are: OpenAPI's binary string (not serialized as JSON).
  content: { 'application/pdf': { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) } },
};

const IDEMPOTENCY =
  ' An `Idempotency-Key` header makes a retry answer the first reply; the same key with another body is 409.';

/** Account billing (base /api/v1/billing): invoices, paying them, credit, the ledger. */
export function registerBillingRoutes(
  app: ModuleApp,
  billing: BillingService,
  replies: IdempotentReplies,
  pdfs: InvoicePdfs,
): void {
  app.get(
    '/invoices',
    {
      schema: {
        summary: "The caller's invoices and their organizations', newest first",
        description:
          '`page`/`limit` 50/200; `status_filter` (`open` = unpaid and overdue); `with_total=true` answers ' +
          '`{items, total, page, limit, counts}`, counts per status as if the filter were unset, with `all` and `open`.',
        querystring: InvoicesQuery,
        response: { 200: InvoicesResponse, ...errorResponses(401, 429), 422: Filter422 },
      },
    },
    async (request) => billing.invoices(await request.owner(), request.query),
  );

  app.get(
    '/invoices/:id',
    {
      schema: {
        summary: 'One invoice, its lines (in the order they were written) and the services it pays for',
        params: InvoiceParams,
        response: { 200: InvoiceResponse, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request) => billing.invoice(await request.owner(), request.params.id),
  );

  app.get(
    '/invoices/:id/pdf',
    {
      schema: {
        summary: 'One invoice as a PDF (seller, buyer, lines, totals, amount due)',
        description:
          "Read as `GET /invoices/{id}` reads: the caller's own invoices and their organizations'; another " +
          "tenant's is 404. Shown inline, named after the invoice's number (`INV-000001.pdf`).",
        params: InvoiceParams,
        response: { 200: PdfResponse, ...errorResponses(401, 404, 422, 429) },
      },
    },
    async (request, reply) => {
      const pdf = await pdfs.pdf(await request.owner(), request.params.id);
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${pdf.number}.pdf"`)
        .send(pdf.body);
    },
  );

  app.post(
    '/invoices/:id/pay',
    {
      schema: {
        summary: 'Pay an open invoice from credit or by card',
        description:
          '`credit`: 402 `Insufficient credit` when the balance does not cover the amount due. `card`: through ' +
          "the payment provider; a decline is 402 with the provider's reason and changes nothing. Once paid, " +
          'the services the invoice pays for are provisioned.' +
          IDEMPOTENCY,
        params: InvoiceParams,
        body: PayBody,
        headers: IdempotencyKeyHeader,
        response: {
          200: InvoiceResponse,
          ...errorResponses(401, 402, 403, 404, 409, 413, 415, 422, 429, 503),
        },
      },
      config: { audit: 'billing.invoice.pay' },
    },
    async (request) => {
      const owner = await request.owner();
      const key = idempotencyKeyOf(request);
      request.auditNote = { resourceId: request.params.id };
      const answer = await replies.run(
        { userId: owner.userId, route: 'billing.invoice.pay', key },
        { id: request.params.id, body: request.body },
        async () => ({ status: 200, body: await billing.pay(owner, request.params.id, request.body, key) }),
      );
      return answer.body as InvoiceView;
    },
  );

  app.get(
    '/credit',
    {
      schema: {
        summary: "The account's credit balance (the sum of its ledger)",
        response: { 200: CreditResponse, ...errorResponses(401, 429) },
      },
    },
    async (request) => billing.credit(await request.owner()),
  );

  app.post(
    '/credit/top-up',
    {
      schema: {
        summary: 'Add credit, paid through the payment provider',
        description: 'Answers the `credit_add` transaction.' + IDEMPOTENCY,
        body: TopUpBody,
        headers: IdempotencyKeyHeader,
        response: { 201: TransactionResponse, ...errorResponses(401, 402, 409, 413, 415, 422, 429, 503) },
      },
      config: { audit: 'billing.credit.top_up' },
    },
    async (request, reply) => {
      const owner = await request.owner();
      const key = idempotencyKeyOf(request);
      const answer = await replies.run(
        { userId: owner.userId, route: 'billing.credit.top_up', key },
        request.body,
        async () => ({ status: 201, body: await billing.topUp(owner, request.body, key) }),
      );
      return reply.code(201).send(answer.body as TransactionView);
    },
  );

  app.get(
    '/transactions',
    {
      schema: {
        summary: "The account's ledger, newest first",
        description:
          '`page`/`limit` 50/200; `type_filter` (`credit` = credit_add and credit_deduct); `with_total=true` ' +
          'answers `{items, total, page, limit, counts}`, counts per type as if the filter were unset, with `all` and `credit`.',
        querystring: TransactionsQuery,
        response: { 200: TransactionsResponse, ...errorResponses(401, 429), 422: Filter422 },
      },
    },
    async (request) => billing.transactions(await request.owner(), request.query),
  );
}
