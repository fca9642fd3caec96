import { Type } from 'typebox';

export const PaymentSessionBody = Type.Object(
  {
    provider: Type.String({
      minLength: 1,
      maxLength: 40,
      description: 'One of the cart region’s providers: `manual` or `stripe`',
    }),
    payment_method: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description:
          'A method to confirm with at once (`pm_…` at Stripe); without it the shopper’s page confirms',
      }),
    ),
  },
  { additionalProperties: false },
);

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const PaymentSessionResponse = Type.Object({
  payment_session: Type.Object({
    id: Type.Integer(),
    provider: Type.String(),
    status: Type.String({
      description:
        '`requires_payment_method`, `requires_action`, `authorized`, `declined`, `captured` or `canceled`',
    }),
    amount: Type.Number(),
    currency_code: Type.String(),
    client_secret: Nullable(Type.String()),
    decline_code: Nullable(Type.String()),
    decline_reason: Nullable(Type.String()),
  }),
});

export const CompleteBody = Type.Object(
  { accept_terms: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);

export const CompleteHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
});

/** The answer's order is the Store API's order view (placed-order-view.ts), kept as the code makes it. */
export const CompleteResponse = Type.Object({
  order: Type.Object({}, { additionalProperties: true }),
  access_token: Type.String({ description: 'Opens this order’s read: `GET .../orders/{id}?token=`' }),
});
