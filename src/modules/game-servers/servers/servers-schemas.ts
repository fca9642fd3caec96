import { Type } from 'typebox';
import { describes, IsoTime, Nullable } from '../../../kernel/http/view-schemas.ts';
import { PERMISSIONS } from './server-access.ts';
import type { ServerUserView, ServerView } from './server-view.ts';

const Uuid = Type.String({ format: 'uuid' });
export const ServerParams = Type.Object({ uuid: Uuid });
export const ServerUserParams = Type.Object({ uuid: Uuid, user_id: Type.Integer({ minimum: 1 }) });

export const ServerResponse = describes<ServerView>()(
  Type.Object({
    uuid: Type.String(),
    service_id: Type.Integer(),
    name: Type.String(),
    software: Type.Object({
      specialization_slug: Type.String(),
      version_id: Nullable(Type.String()),
      build_number: Nullable(Type.Integer()),
      latest_build: Type.Optional(Nullable(Type.Object({ build: Type.Integer(), channel: Type.String() }))),
    }),
    game_version: Nullable(Type.String()),
    loader: Type.Union([
      Type.Literal('paper'),
      Type.Literal('fabric'),
      Type.Literal('forge'),
      Type.Literal('none'),
    ]),
    node: Type.String(),
    created_at: IsoTime,
    owner: Type.Boolean(),
    permissions: Type.Array(Type.String()),
  }),
);
export const ServersResponse = Type.Object({ items: Type.Array(ServerResponse), total: Type.Integer() });

export const ServerUserResponse = describes<ServerUserView>()(
  Type.Object({
    user_id: Type.Integer(),
    email: Type.String(),
    permissions: Type.Array(Type.String()),
    created_at: IsoTime,
  }),
);
export const ServerUsersResponse = Type.Object({ items: Type.Array(ServerUserResponse) });

export const ServerUserBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 254 }),
    permissions: Type.Array(Type.Union(PERMISSIONS.map((p) => Type.Literal(p))), {
      maxItems: PERMISSIONS.length,
      uniqueItems: true,
    }),
  },
  { additionalProperties: false },
);
