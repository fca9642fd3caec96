import { Type } from 'typebox';
import { describes, IsoTime, Nullable } from '../../../kernel/http/view-schemas.ts';
import { RelayParams } from '../relays/relays-schemas.ts';
import type { RelayKeyView } from './relay-key-view.ts';

export const RelayKeyParams = Type.Object({
  ...RelayParams.properties,
  key_id: Type.Integer({ minimum: 1 }),
});

export const CreateRelayKeyBody = Type.Object(
  { label: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false },
);

export const RelayKeyResponse = describes<RelayKeyView>()(
  Type.Object({
    id: Type.Integer(),
    label: Type.String(),
    key_prefix: Type.String(),
    created_at: IsoTime,
    last_used_at: Nullable(IsoTime),
  }),
);

/** The answer to a creation: the key itself, this once. */
export const NewRelayKeyResponse = describes<RelayKeyView & { raw_key: string }>()(
  Type.Object({ ...RelayKeyResponse.properties, raw_key: Type.String() }),
);
