import type { Principal } from '../../../kernel/auth/principal.ts';
import type { CommerceContext } from '../commerce-context.ts';
import { orderNotFound } from '../commerce-errors.ts';
import type { ReturnStatus } from '../commerce-tables.ts';
import type { OrderAccessTokens } from '../placed-orders/order-access-token.ts';
import type { Actor } from '../refunds/change-audit.ts';
import type { NewReturn, ReturnRequests } from './return-requests.ts';
import { returnNotFound } from './returns-errors.ts';
import { returnView, type ReturnView } from './return-view.ts';
import { ReturnsRepository } from './returns-repository.ts';

/** The calling publishable key: its organization and mode. */
type StoreCaller = Pick<Principal, 'orgId' | 'keyMode'>;

/**
 * Reading returns (the Commerce API's, with `commerce.orders:read`), and a shopper's returns of
 * one order through the Store API, opened by the order's access token: a missing or wrong token,
 * another mode's order and an unknown order are the same 404, as for the order's read.
 */
export class ReturnsService {
  private readonly repo: ReturnsRepository;

  constructor(
    ctx: CommerceContext,
    private readonly requests: ReturnRequests,
    private readonly tokens: OrderAccessTokens,
  ) {
    this.repo = new ReturnsRepository(ctx.db);
  }

  async list(
    orgId: number,
    filter: { status?: ReturnStatus; order_id?: number; limit?: number; offset?: number },
  ): Promise<{ returns: ReturnView[]; count: number; limit: number; offset: number }> {
    const limit = filter.limit ?? 50;
    const offset = filter.offset ?? 0;
    const { rows, count } = await this.repo.list(orgId, { ...filter, limit, offset });
    return { returns: rows.map(returnView), count, limit, offset };
  }

  async one(orgId: number, id: number): Promise<ReturnView> {
    const found = await this.repo.one(orgId, id);
    if (found === null) throw returnNotFound();
    return returnView(found);
  }

  async ofOrder(orgId: number, orderId: number): Promise<ReturnView[]> {
    if ((await this.repo.order(orgId, orderId, false)) === null) throw orderNotFound();
    return (await this.repo.ofOrder(orderId)).map(returnView);
  }

  async shopperList(caller: StoreCaller, orderId: number, token: string | undefined): Promise<ReturnView[]> {
    const orgId = this.opened(caller, orderId, token);
    const order = await this.repo.order(orgId, orderId, false);
    if (order === null || order.mode !== caller.keyMode) throw orderNotFound();
    return (await this.repo.ofOrder(orderId)).map(returnView);
  }

  async shopperRequest(
    caller: StoreCaller,
    orderId: number,
    token: string | undefined,
    input: NewReturn,
    actor: Actor,
  ): Promise<ReturnView> {
    const orgId = this.opened(caller, orderId, token);
    return this.requests.request(orgId, orderId, input, 'shopper', actor, (o) => o.mode === caller.keyMode);
  }

  /** The organization whose order the token opens, or 404. */
  private opened(caller: StoreCaller, orderId: number, token: string | undefined): number {
    const access = token === undefined ? null : this.tokens.verify(token);
    if (access === null || access.orgId !== caller.orgId || access.orderId !== orderId) throw orderNotFound();
    return access.orgId;
  }
}
