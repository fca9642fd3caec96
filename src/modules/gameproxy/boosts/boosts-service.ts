import { randomUUID } from 'node:crypto';
import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import type { AuditTables } from '../../../kernel/audit/audit-log.ts';
import { joinTransaction } from '../../../kernel/db/unit-of-work.ts';
import type { ServiceSummary } from '../../services/index.ts';
import type { GameproxyContext, GameproxyModuleDeps } from '../gameproxy-context.ts';
import {
  boostAlreadyActive,
  boostClaimConflict,
  boostNotGameServer,
  boostOtherOrganization,
  boostPaidServer,
  boostServerInactive,
  unknownServerAddress,
} from '../gameproxy-errors.ts';
import type { Boost } from '../gameproxy-tables.ts';
import { BoostsRepository } from './boosts-repository.ts';
import { boostView, type BoostView } from './boosts-view.ts';

const HOUR_MS = 3_600_000;
/** The catalogue `module_name` of game server products. */
const GAME_SERVER_MODULE = 'game_server';
/** A decimal price of zero ("0", "0.00"). */
const FREE_PRICE = /^0+(\.0+)?$/;

/** Who claims: the partner key's organization and partner, and the tenant scope it acts in. */
export interface BoostClaimant {
  readonly orgId: number;
  readonly partner: string;
  readonly owner: OwnerScope;
  readonly ip: string;
}

/** A claim as read from the body or query string; `addressFrom` names where the address came. */
export interface BoostClaim {
  readonly serverAddress: string;
  readonly addressFrom: 'body' | 'query';
  readonly claimId: string | null;
  readonly dryRun: boolean;
}

/** The server address as routes are named: lower-case, without the root's trailing dot. */
export function cleanAddress(address: string): string {
  return address.trim().toLowerCase().replace(/\.$/, '');
}

/**
 * Partner boosts (docs/game-proxy.md, "Partner boosts"): a partner gives the free game server
 * behind a route PARTNER_BOOST_MB more memory for PARTNER_BOOST_HOURS. The grant is recorded and
 * answered; game servers have no resize interface yet, so nothing is resized.
 */
export class BoostsService {
  private readonly repo: BoostsRepository;

  constructor(
    private readonly ctx: GameproxyContext,
    private readonly deps: GameproxyModuleDeps,
  ) {
    this.repo = new BoostsRepository(ctx.db);
  }

  /** Checks every rule, then (unless a dry run) records the grant; a known claim_id answers its grant. */
  async claim(who: BoostClaimant, claim: BoostClaim): Promise<BoostView> {
    const address = cleanAddress(claim.serverAddress);
    if (claim.claimId !== null) {
      const prior = await this.repo.byClaim(who.orgId, who.partner, claim.claimId);
      if (prior !== null) return this.answerOf(prior, address);
    }
    const target = await this.repo.routeByAddress(address);
    if (target === null) throw unknownServerAddress(claim.addressFrom, claim.serverAddress);
    if (target.upstreamServiceId === null) throw boostNotGameServer();
    const service = await this.deps.services.summaryFor(who.owner, target.upstreamServiceId, 'read');
    checkServer(service, who.orgId);
    const now = new Date(this.ctx.clock.now());
    const settings = this.ctx.settings;
    const grant: Omit<Boost, 'id'> = {
      org_id: who.orgId,
      partner: who.partner,
      claim_id: claim.claimId ?? randomUUID(),
      route_id: target.routeId,
      service_id: service.id,
      server_address: address,
      memory_mb: settings.partnerBoostMb,
      created_at: now,
      expires_at: new Date(now.getTime() + settings.partnerBoostHours * HOUR_MS),
    };
    if (claim.dryRun) {
      const active = await this.repo.activeFor(grant.service_id, now);
      if (active !== null) throw boostAlreadyActive(active.expires_at.toISOString());
      return boostView({ ...grant, claim_id: claim.claimId }, true);
    }
    return this.grant(grant, who);
  }

  /** Records the grant: one boost per server at a time; claims at once are serialised per claim and server. */
  private async grant(grant: Omit<Boost, 'id'>, who: BoostClaimant): Promise<BoostView> {
    return this.ctx.transaction(async (uow) => {
      const repo = this.repo.withTx(uow.trx);
      // Always the claim first, then the server: two grants never wait on each other in turn.
      await repo.lock(`claim:${grant.org_id}:${grant.partner}:${grant.claim_id}`);
      await repo.lock(`service:${grant.service_id}`);
      const prior = await repo.byClaim(grant.org_id, grant.partner, grant.claim_id);
      if (prior !== null) return this.answerOf(prior, grant.server_address);
      const active = await repo.activeFor(grant.service_id, grant.created_at);
      if (active !== null) throw boostAlreadyActive(active.expires_at.toISOString());
      const boost = await repo.insert(grant);
      await this.ctx.audit.record(
        {
          orgId: grant.org_id,
          actorUserId: null,
          actorRealm: 'partner',
          action: 'gameproxy.boost.create',
          resourceId: boost.id,
          ip: who.ip,
        },
        joinTransaction<AuditTables>(uow.trx),
      );
      return boostView(boost, false);
    });
  }

  /** A retry of a granted claim: the same answer, for the same address only. */
  private answerOf(prior: Boost, address: string): BoostView {
    if (prior.server_address !== address) throw boostClaimConflict();
    return boostView(prior, false);
  }
}

/** The rules on the server: a game server of the organization, active, on a free plan. */
function checkServer(service: ServiceSummary | null, orgId: number): asserts service is ServiceSummary {
  if (service === null || service.orgId !== orgId) throw boostOtherOrganization();
  if (service.module !== GAME_SERVER_MODULE) throw boostNotGameServer();
  if (service.status !== 'active') throw boostServerInactive();
  if (!FREE_PRICE.test(service.price)) throw boostPaidServer();
}
