import { defineEvent } from '../../kernel/events/domain-events.ts';

/** A storefront customer registered (the webhooks' `customer.created`: docs/webhooks.md, "Event names"). */
export interface CustomerCreated {
  readonly orgId: number;
  readonly customerId: number;
  readonly email: string;
}

export const customerCreated = defineEvent<CustomerCreated>('identity.customer-created', (m) => {
  const e = m as Partial<CustomerCreated> | null;
  return e !== null &&
    typeof e?.orgId === 'number' &&
    typeof e.customerId === 'number' &&
    typeof e.email === 'string'
    ? (e as CustomerCreated)
    : null;
});

/** Sessions ended (sign-out, password reset, an organization's deletion): every process forgets them. */
export interface SessionsEnded {
  readonly sessionIds: readonly string[];
}

export const sessionsEnded = defineEvent<SessionsEnded>('identity.sessions-ended', (m) => {
  const ids = (m as Partial<SessionsEnded> | null)?.sessionIds;
  return Array.isArray(ids) && ids.every((i) => typeof i === 'string') ? { sessionIds: ids } : null;
});
