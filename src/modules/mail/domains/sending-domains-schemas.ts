import { Type } from 'typebox';
import { describes, IsoTime, Nullable } from '../../../kernel/http/view-schemas.ts';
import { RelayParams } from '../relays/relays-schemas.ts';
import type { SendingDomainView } from './sending-domain-view.ts';

export const SendingDomainParams = Type.Object({
  ...RelayParams.properties,
  domain: Type.String({ maxLength: 253 }),
});

export const AddSendingDomainBody = Type.Object(
  { domain: Type.String({ maxLength: 253 }) },
  { additionalProperties: false },
);

export const SendingDomainResponse = describes<SendingDomainView>()(
  Type.Object({
    domain: Type.String(),
    status: Type.Union([Type.Literal('pending'), Type.Literal('verified')]),
    dkim_selector: Type.String(),
    hosted_here: Type.Boolean(),
    records: Type.Array(
      Type.Object({
        purpose: Type.Union([Type.Literal('dkim'), Type.Literal('spf'), Type.Literal('return_path')]),
        name: Type.String(),
        type: Type.Union([Type.Literal('TXT'), Type.Literal('CNAME')]),
        value: Type.String(),
        verified: Type.Boolean(),
        reason: Nullable(
          Type.String({
            description:
              'Why the last check did not find it as needed: for SPF `No SPF record`, `More than one SPF record`, `The SPF record is not valid: …`, `The SPF record does not include …`',
          }),
        ),
      }),
    ),
    verified_at: Nullable(IsoTime),
    checked_at: Nullable(IsoTime),
    created_at: IsoTime,
  }),
);
