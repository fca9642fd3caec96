import { Type } from 'typebox';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import { IsoTime, NoContent, Nullable } from '../../../kernel/http/view-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import type { StaffAccess } from '../access/staff-access.ts';
import {
  NOTICE_AUDIENCES,
  NOTICE_KINDS,
  NOTICE_PLACEMENTS,
  NOTICE_STATUSES,
  UPDATE_STATES,
} from './notice-rules.ts';
import type { NoticesService } from './notices-service.ts';

const STAFF = { auth: 'staff' } as const;
const Slug = Type.String({ minLength: 1, maxLength: 64 });
const SlugParams = Type.Object({ org_slug: Slug });
const NoticeParams = Type.Object({
  org_slug: Slug,
  notice_id: Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 }),
});
const Kind = Type.Enum([...NOTICE_KINDS]);
const Audience = Type.Enum([...NOTICE_AUDIENCES]);
const Placement = Type.Enum([...NOTICE_PLACEMENTS]);
const Status = Type.Enum([...NOTICE_STATUSES]);
const Title = Type.String({ minLength: 1, maxLength: 200 });
const Text = Type.String({ maxLength: 10_000 });
const When = Nullable(Type.String({ format: 'date-time' }));

const UpdateOut = Type.Object({
  id: Type.Integer(),
  body: Type.String(),
  state: Nullable(Type.String()),
  created_at: IsoTime,
});
const NoticeOut = Type.Object({
  id: Type.Integer(),
  kind: Type.String(),
  title: Type.String(),
  body: Type.String(),
  audience: Type.String(),
  placement: Type.String(),
  status: Type.String(),
  starts_at: Nullable(IsoTime),
  ends_at: Nullable(IsoTime),
  resolved_at: Nullable(IsoTime),
  created_by: Nullable(Type.Integer()),
  created_at: IsoTime,
  updated_at: IsoTime,
  updates: Type.Array(UpdateOut),
});
const PublicNoticeOut = Type.Object({
  id: Type.Integer(),
  kind: Type.String(),
  title: Type.String(),
  body: Type.String(),
  placement: Type.String(),
  status: Type.String(),
  starts_at: Nullable(IsoTime),
  ends_at: Nullable(IsoTime),
  updated_at: IsoTime,
  updates: Type.Array(UpdateOut),
});

const NoticeFields = {
  kind: Type.Optional(Kind),
  body: Type.Optional(Text),
  audience: Type.Optional(Audience),
  placement: Type.Optional(Placement),
  status: Type.Optional(Status),
  starts_at: Type.Optional(When),
  ends_at: Type.Optional(When),
};

/**
 * The console's notices (base /api/v1/orgs/{org_slug}/staff/notices; admins only) and their public
 * read (/api/v1/orgs/{org_slug}/notices, no token).
 */
export function registerNoticeRoutes(app: ModuleApp, access: StaffAccess, notices: NoticesService): void {
  app.get(
    '/:org_slug/staff/notices',
    {
      schema: {
        summary: "The organization's notices, newest first",
        params: SlugParams,
        querystring: Type.Object({ status: Type.Optional(Status) }),
        response: { 200: Type.Array(NoticeOut), ...errorResponses(401, 403, 422, 429) },
      },
      config: STAFF,
    },
    async (request) => notices.list(await access.callerIn(request, ['admin']), request.query.status),
  );

  app.post(
    '/:org_slug/staff/notices',
    {
      schema: {
        summary: 'Create a notice',
        description:
          'Defaults: `kind` info, `body` empty, `audience` all, `placement` banner, `status` draft. ' +
          'A `scheduled` notice needs `starts_at`; `ends_at` is after `starts_at`.',
        params: SlugParams,
        body: Type.Object({ title: Title, ...NoticeFields }, { additionalProperties: false }),
        response: { 201: NoticeOut, ...errorResponses(401, 403, 415, 422, 429) },
      },
      config: STAFF,
    },
    async (request, reply) => {
      const caller = await access.callerIn(request, ['admin']);
      return reply.code(201).send(await notices.create(caller, request.body));
    },
  );

  app.patch(
    '/:org_slug/staff/notices/:notice_id',
    {
      schema: {
        summary: 'Change a notice',
        description:
          '`clear_starts_at` / `clear_ends_at` set the time to null. `status` resolved stamps resolved_at.',
        params: NoticeParams,
        body: Type.Object(
          {
            title: Type.Optional(Title),
            ...NoticeFields,
            clear_starts_at: Type.Optional(Type.Boolean()),
            clear_ends_at: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false },
        ),
        response: { 200: NoticeOut, ...errorResponses(401, 403, 404, 415, 422, 429) },
      },
      config: STAFF,
    },
    async (request) =>
      notices.patch(await access.callerIn(request, ['admin']), request.params.notice_id, request.body),
  );

  app.delete(
    '/:org_slug/staff/notices/:notice_id',
    {
      schema: {
        summary: 'Delete a notice and its updates',
        params: NoticeParams,
        response: { 204: NoContent, ...errorResponses(401, 403, 404, 422, 429) },
      },
      config: STAFF,
    },
    async (request, reply) => {
      await notices.remove(await access.callerIn(request, ['admin']), request.params.notice_id);
      return reply.code(204).send();
    },
  );

  app.post(
    '/:org_slug/staff/notices/:notice_id/updates',
    {
      schema: {
        summary: 'Post an update on a notice',
        description:
          '`state` one of investigating, identified, monitoring, update, resolved; `resolved` also ' +
          'resolves the notice. Answers the notice with its updates.',
        params: NoticeParams,
        body: Type.Object(
          {
            body: Type.String({ minLength: 1, maxLength: 10_000 }),
            state: Type.Optional(Type.Enum([...UPDATE_STATES])),
          },
          { additionalProperties: false },
        ),
        response: { 201: NoticeOut, ...errorResponses(401, 403, 404, 415, 422, 429) },
      },
      config: STAFF,
    },
    async (request, reply) => {
      const caller = await access.callerIn(request, ['admin']);
      return reply.code(201).send(await notices.addUpdate(caller, request.params.notice_id, request.body));
    },
  );

  app.get(
    '/:org_slug/notices',
    {
      schema: {
        summary: 'The notices shown now (storefront banner, dashboard, status page)',
        description:
          'No token. Notices for audience `all` or `customers` that are `active` (inside starts_at..ends_at ' +
          'when set) or `scheduled` with the clock inside [starts_at, ends_at); newest first, with updates.',
        params: SlugParams,
        querystring: Type.Object({ placement: Type.Optional(Placement) }),
        response: { 200: Type.Array(PublicNoticeOut), ...errorResponses(404, 422, 429) },
      },
      config: { auth: 'public' },
    },
    async (request) => notices.live(request.params.org_slug, request.query.placement),
  );
}
