import type { FastifyRequest } from 'fastify';
import type { AuditTables } from '../../../kernel/audit/audit-log.ts';
import { joinTransaction, type UnitOfWork } from '../../../kernel/db/unit-of-work.ts';
import type { CommerceContext } from '../commerce-context.ts';
import type { CommerceTables } from '../commerce-tables.ts';

/** Who makes a change of money or returns: what its audit entry names. */
export interface Actor {
  readonly userId: number | null;
  readonly realm: string;
  readonly ip: string | null;
}

export const actorOf = (request: FastifyRequest): Actor => ({
  userId: request.principal?.userId ?? null,
  realm: request.principal?.realm ?? 'main',
  ip: request.ip,
});

/**
 * The audit entry of a return's or a refund's change, written in the change's own transaction
 * (the routes declare `audit: false`): it exists exactly when the money or stock moved.
 */
export async function auditChange(
  ctx: CommerceContext,
  uow: UnitOfWork<CommerceTables>,
  actor: Actor,
  orgId: number,
  action: `commerce.${string}`,
  resourceId: number,
): Promise<void> {
  await ctx.audit.record(
    { orgId, actorUserId: actor.userId, actorRealm: actor.realm, action, resourceId, ip: actor.ip },
    joinTransaction<AuditTables>(uow.trx),
  );
}
