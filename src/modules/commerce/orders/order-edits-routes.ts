import { Type } from 'typebox';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { Nullable } from '../../../kernel/http/view-schemas.ts';
import { idParams, Metadata } from '../shared/commerce-http-schemas.ts';
import type { OrderEditsService } from './order-edits-service.ts';
import { OrderDetailResponse, OrderNoteResponse } from './order-edits-view.ts';

const READ = { auth: { scope: 'commerce.orders:read' } } as const;
const WRITE = { auth: { scope: 'commerce.orders:write' } } as const;

const UpdateOrderBody = Type.Object(
  {
    email: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 254 }))),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false, minProperties: 1 },
);
const NoteBody = Type.Object(
  { body: Type.String({ minLength: 1, maxLength: 5000 }) },
  { additionalProperties: false },
);

/** One order: read, edited, annotated (docs/commerce.md, "Orders"). The list is one of the Commerce lists. */
export function registerOrderEditRoutes(app: ModuleApp, service: OrderEditsService): void {
  const base = '/:org_slug/commerce/orders/:order_id';
  const params = idParams('order_id');
  app.get(
    base,
    {
      schema: {
        description: 'An order with its notes and its documents.',
        params,
        response: { 200: OrderDetailResponse },
      },
      config: READ,
    },
    async (request) =>
      service.get(request.principal.orgId!, request.params.org_slug, request.params.order_id),
  );
  app.patch(
    base,
    {
      schema: {
        description: 'Edits an order: its e-mail, its metadata (replaced whole).',
        params,
        body: UpdateOrderBody,
        response: { 200: OrderDetailResponse },
      },
      config: WRITE,
    },
    async (request) =>
      service.update(
        request.principal.orgId!,
        request.params.org_slug,
        request.params.order_id,
        request.body,
      ),
  );
  app.post(
    `${base}/notes`,
    {
      schema: {
        description: 'Adds a note to an order (for the shop’s staff; never shown to the shopper).',
        params,
        body: NoteBody,
        response: { 201: OrderNoteResponse },
      },
      config: WRITE,
    },
    async (request, reply) => {
      const p = request.principal;
      const author = p.credential === 'org_key' ? `key:${p.keyId}` : `user:${p.userId}`;
      return reply
        .code(201)
        .send(await service.addNote(p.orgId!, request.params.order_id, request.body.body, author));
    },
  );
}
