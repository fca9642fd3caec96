import { Type } from 'typebox';
import { describes, IsoTime, Nullable, type JsonView } from '../../../kernel/http/view-schemas.ts';
import type { CommerceContext } from '../commerce-context.ts';
import { stillInUse } from '../commerce-errors.ts';
import type { ShopEventLog } from '../events/shop-event-log.ts';
import { isUniqueViolation } from '../shared/unique-violation.ts';
import { returnReasonNotFound, returnReasonTaken } from './returns-errors.ts';
import {
  ReturnReasonsRepository,
  type ReturnReason,
  type ReturnReasonFields,
} from './return-reasons-repository.ts';

export type ReturnReasonView = JsonView<Omit<ReturnReason, 'org_id'>>;

export const returnReasonView = (r: ReturnReason): ReturnReasonView => ({
  id: Number(r.id),
  value: r.value,
  label: r.label,
  description: r.description,
  created_at: new Date(r.created_at).toISOString(),
  updated_at: new Date(r.updated_at).toISOString(),
});

export const ReturnReasonResponse = describes<ReturnReasonView>()(
  Type.Object({
    id: Type.Integer(),
    value: Type.String({ description: 'a short code, unique in the shop (`damaged`)' }),
    label: Type.String(),
    description: Nullable(Type.String()),
    created_at: IsoTime,
    updated_at: IsoTime,
  }),
);

/**
 * The shop's return reasons (Medusa's `{value, label, description}`): read by shoppers through the
 * Store API, changed with `commerce.returns:write`. One that returns name cannot be deleted (409).
 */
export class ReturnReasonsService {
  readonly repo: ReturnReasonsRepository;

  constructor(
    private readonly ctx: CommerceContext,
    private readonly log: ShopEventLog,
  ) {
    this.repo = new ReturnReasonsRepository(ctx.db);
  }

  async list(orgId: number): Promise<ReturnReasonView[]> {
    return (await this.repo.list(orgId)).map(returnReasonView);
  }

  async one(orgId: number, id: number): Promise<ReturnReasonView> {
    const found = await this.repo.one(orgId, id);
    if (found === null) throw returnReasonNotFound();
    return returnReasonView(found);
  }

  async create(orgId: number, fields: ReturnReasonFields): Promise<ReturnReasonView> {
    return this.log.change(orgId, async (uow) => {
      const repo = new ReturnReasonsRepository(uow.trx);
      if (await repo.valueTaken(orgId, fields.value, null)) throw returnReasonTaken(fields.value);
      const made = await this.taken(fields.value, () => repo.insert(orgId, fields, this.now()));
      return {
        result: returnReasonView(made),
        events: [['commerce.return_reason.created', { id: Number(made.id) }]],
      };
    });
  }

  async update(orgId: number, id: number, patch: Partial<ReturnReasonFields>): Promise<ReturnReasonView> {
    return this.log.change(orgId, async (uow) => {
      const repo = new ReturnReasonsRepository(uow.trx);
      if (patch.value !== undefined && (await repo.valueTaken(orgId, patch.value, id)))
        throw returnReasonTaken(patch.value);
      const row = await this.taken(patch.value ?? '', () => repo.update(orgId, id, patch, this.now()));
      if (row === null) throw returnReasonNotFound();
      return { result: returnReasonView(row), events: [['commerce.return_reason.updated', { id }]] };
    });
  }

  async delete(orgId: number, id: number): Promise<{ id: number; deleted: true }> {
    return this.log.change(orgId, async (uow) => {
      const repo = new ReturnReasonsRepository(uow.trx);
      if ((await repo.one(orgId, id)) === null) throw returnReasonNotFound();
      if (await repo.inUse(id)) throw stillInUse('return reason', 'returns');
      await repo.delete(orgId, id);
      return { result: { id, deleted: true }, events: [['commerce.return_reason.deleted', { id }]] };
    });
  }

  private now(): Date {
    return new Date(this.ctx.clock.now());
  }

  /** A value taken by a concurrent request is the same 409 as one taken before. */
  private async taken<T>(value: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw returnReasonTaken(value);
      throw error;
    }
  }
}
