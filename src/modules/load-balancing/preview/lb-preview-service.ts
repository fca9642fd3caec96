import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import { loadBalancerNotFound } from '../load-balancing-errors.ts';
import type { Static } from 'typebox';
import { resolveClientContext, steer } from '../../../dns/index.ts';
import type {
  ClientContext,
  HealthView,
  SteeringLoadBalancer,
  SteeringPool,
  TraceStage,
} from '../../../dns/index.ts';
import { applyWhatIf, seededUniform, type WhatIf } from './what-if.ts';
import type {
  MatrixBody,
  MatrixResponse,
  WhatIfPreviewBody,
  WhatIfPreviewResponse,
} from './what-if-schemas.ts';
import { REGION_CODES, REGIONS, locationByCode, regionOfCountry } from '../../../geo/geo-data.ts';
import type { IpLocator } from '../../../geo/ip-locator.ts';
import { invalidFields, type ValidationProblem } from '../../../kernel/errors/app-error.ts';
import { parseAddress } from '../../../net/address-class.ts';
import type { PreviewView } from './lb-preview-view.ts';
import type { MembersRepository } from '../pools/members-repository.ts';
import type { SteeringLoader } from '../steering/steering-loader.ts';
import type { LoadBalancersService } from '../load-balancers/load-balancers-service.ts';
import type { PreviewBody, TrafficShareQuery, TrafficShareResponse } from './preview-schemas.ts';
import { exactTrafficShare } from './traffic-share.ts';

export type PreviewRequest = Static<typeof PreviewBody>;
type WhatIfPreviewRequest = Static<typeof WhatIfPreviewBody>;
type WhatIfPreviewView = Static<typeof WhatIfPreviewResponse>;
type MatrixRequest = Static<typeof MatrixBody>;
type MatrixView = Static<typeof MatrixResponse>;

/** The matrix's countries, checked (422 at body.countries.N); undefined: every country in the maps. */
function checkCountries(countries: readonly string[] | undefined): string[] | undefined {
  if (countries === undefined) return undefined;
  const problems: ValidationProblem[] = [];
  const out = countries.map((c, i) => {
    if (!/^[A-Za-z]{2}$/.test(c) || regionOfCountry(c) === null) {
      problems.push({
        type: 'value_error',
        loc: ['body', 'countries', i],
        msg: `Unknown country code: ${c}`,
        input: c,
        ctx: {},
      });
    }
    return c.toUpperCase();
  });
  if (problems.length > 0) throw invalidFields(problems);
  return [...new Set(out)];
}

interface PreviewInput {
  clientIp: string | null;
  ecs: { address: string; sourcePrefix: number } | null;
  pop: string | null;
  country: string | null;
  region: string | null;
}

/** The request's overrides (in the body or the query string), checked (422 naming the field) and normalised. */
function checkRequest(body: PreviewRequest, where: 'body' | 'query' = 'body'): PreviewInput {
  const problems: ValidationProblem[] = [];
  const problem = (field: string, msg: string, input: unknown) =>
    problems.push({ type: 'value_error', loc: [where, field], msg, input, ctx: {} });
  let clientIp: string | null = null;
  if (body.client_ip !== undefined) {
    const parsed = parseAddress(body.client_ip.trim());
    if (parsed === null) problem('client_ip', `Invalid IP address: ${body.client_ip}`, body.client_ip);
    else clientIp = parsed.canonical;
  }
  let ecs: PreviewInput['ecs'] = null;
  if (body.ecs !== undefined) {
    const [address = '', prefixText] = body.ecs.trim().split('/');
    const parsed = parseAddress(address);
    const prefix = prefixText === undefined ? (parsed?.family === 6 ? 128 : 32) : Number(prefixText);
    const max = parsed?.family === 6 ? 128 : 32;
    if (parsed === null || !Number.isInteger(prefix) || prefix < 0 || prefix > max || prefixText === '') {
      problem('ecs', `Invalid client subnet: ${body.ecs}`, body.ecs);
    } else ecs = { address: parsed.canonical, sourcePrefix: prefix };
  }
  let pop: string | null = null;
  if (body.pop !== undefined) {
    const location = locationByCode(body.pop.trim());
    if (location === null) problem('pop', `Unknown location code: ${body.pop}`, body.pop);
    else pop = location.code;
  }
  let country: string | null = null;
  if (body.country !== undefined) {
    if (!/^[A-Za-z]{2}$/.test(body.country) || regionOfCountry(body.country) === null) {
      problem('country', `Unknown country code: ${body.country}`, body.country);
    } else country = body.country.toUpperCase();
  }
  let region: string | null = null;
  if (body.region !== undefined) {
    if (!REGION_CODES.has(body.region.toUpperCase())) {
      problem('region', `Unknown region code: ${body.region}`, body.region);
    } else region = body.region.toUpperCase();
  }
  if (problems.length > 0) throw invalidFields(problems);
  return { clientIp, ecs, pop, country, region };
}

function contextView(ctx: ClientContext): PreviewView['context'] {
  return {
    source: ctx.source,
    pop: ctx.pop,
    country: ctx.country,
    region: ctx.region,
    client_ip: ctx.clientIp,
  };
}

function traceView(trace: readonly TraceStage[]): PreviewView['trace'] {
  return trace.map((s) => ({
    stage: s.stage,
    key: s.key,
    pools: s.pools.map((p) => ({
      id: p.id,
      name: p.name,
      skipped: p.skipped,
      ...(p.distanceKm !== undefined ? { distance_km: p.distanceKm } : {}),
    })),
  }));
}

/**
 * Reports how a query to a load balancer would be answered, by running the same steer() the DNS
 * server runs on the stored configuration and on the health the checker last stored. The PoP
 * defaults to this node's (config POP); resolver_ip placement uses the GeoIP database when it opens.
 */
export class LoadBalancerPreviewService {
  constructor(
    private readonly steering: SteeringLoader,
    private readonly members: MembersRepository,
    private readonly loadBalancers: LoadBalancersService,
    private readonly defaultPop: string,
    private readonly locator: () => Promise<IpLocator | null>,
    private readonly random: () => number = Math.random,
  ) {}

  /**
   * The stored configuration and health of a load balancer, and the client placed as the request
   * says (checked once the load balancer is found: another account's is a 404 before any 422).
   */
  private async situation(owner: OwnerScope, zoneId: number, lbId: number, request: () => PreviewInput) {
    const row = await this.loadBalancers.findOwned(owner, zoneId, lbId);
    const input = request();
    const steering = await this.steering.ofZone(row.zone_id);
    const lb = steering.loadBalancers.find((l) => l.id === row.id);
    if (!lb) throw loadBalancerNotFound();
    const stored = await this.members.healthOfZone(row.zone_id);
    const health: HealthView = { statusOf: (id) => stored.get(id) ?? 'unknown' };
    const locator = await this.locator();
    // Placed by a load balancer's location strategy (a what-if may change it).
    const contextFor = (of: SteeringLoadBalancer) =>
      resolveClientContext({
        strategy: of.locationStrategy,
        pop: input.pop ?? this.defaultPop,
        clientIp: input.clientIp,
        ecs: input.ecs,
        overrides: { country: input.country, region: input.region },
        locator: of.locationStrategy === 'resolver_ip' ? locator : null,
      });
    return { lb, pools: steering.pools, health, ctx: contextFor(lb), contextFor };
  }

  /** The exact share of each answer for a client placed by `query` (traffic-share.ts). */
  async trafficShare(
    owner: OwnerScope,
    zoneId: number,
    lbId: number,
    query: Static<typeof TrafficShareQuery>,
    whatIf?: WhatIf,
    where: 'query' | 'body' = 'query',
  ): Promise<Static<typeof TrafficShareResponse>> {
    const s = await this.situation(owner, zoneId, lbId, () => checkRequest(query, where));
    const { lb, pools, health } = whatIf === undefined ? s : applyWhatIf(s, whatIf);
    const ctx = s.contextFor(lb);
    const shares = exactTrafficShare(lb, pools, ctx, query.qtype === 'AAAA' ? 6 : 4, health);
    return {
      members: shares.members.map((m) => ({
        member_id: m.memberId,
        pool_id: m.poolId,
        address: m.address,
        share: m.share,
      })),
      servfail_share: shares.servfailShare,
      nodata_share: shares.nodataShare,
      context: contextView(ctx),
    };
  }

  /**
   * How a query would be answered; with `what_if`, as it would be after those unsaved changes, with
   * the `baseline` (the same draws without them) and whether pool, answers or reason `changed`.
   */
  async preview(
    owner: OwnerScope,
    zoneId: number,
    lbId: number,
    body: WhatIfPreviewRequest,
  ): Promise<WhatIfPreviewView> {
    const s = await this.situation(owner, zoneId, lbId, () => checkRequest(body));
    const family = body.qtype === 'AAAA' ? 6 : 4;
    if (body.what_if === undefined) return this.decide(s, s.ctx, family, this.random);
    const after = applyWhatIf(s, body.what_if);
    const seed = Math.floor(this.random() * 0x1_0000_0000);
    const baseline = this.decide(s, s.ctx, family, seededUniform(seed));
    const view = this.decide(after, s.contextFor(after.lb), family, seededUniform(seed));
    const brief = ({ trace: _trace, context: _context, ...d }: PreviewView) => d;
    const key = (d: PreviewView) => `${d.reason}|${d.pool?.id}|${d.answers.map((a) => a.address).join()}`;
    return { ...view, baseline: brief(baseline), changed: key(view) !== key(baseline) };
  }

  /** Before and after `what_if`, for every region and the given (or mapped) countries. */
  async matrix(owner: OwnerScope, zoneId: number, lbId: number, body: MatrixRequest): Promise<MatrixView> {
    const s = await this.situation(owner, zoneId, lbId, () => checkRequest({}));
    const countries = checkCountries(body.countries);
    const after = body.what_if === undefined ? s : applyWhatIf(s, body.what_if);
    const family = body.qtype === 'AAAA' ? 6 : 4;
    const seed = Math.floor(this.random() * 0x1_0000_0000);
    const places = [
      ...REGIONS.map((r) => ({ location: r.code, country: null, region: r.code })),
      ...(
        countries ??
        [...new Set([...Object.keys(s.lb.countryPools), ...Object.keys(after.lb.countryPools)])].sort()
      ).map((c) => ({ location: c, country: c, region: regionOfCountry(c) })),
    ];
    return places.map(({ location, country, region }) => {
      const at = () =>
        resolveClientContext({
          strategy: 'pop',
          pop: this.defaultPop,
          clientIp: null,
          ecs: null,
          overrides: { country, region },
          locator: null,
        });
      const before = this.decide(s, at(), family, seededUniform(seed));
      const next = this.decide(after, at(), family, seededUniform(seed));
      return {
        location,
        before: { cascade_hit: before.cascade_hit, pool: before.pool },
        after: { cascade_hit: next.cascade_hit, pool: next.pool },
        moved: (before.pool?.id ?? null) !== (next.pool?.id ?? null),
      };
    });
  }

  private decide(
    s: { lb: SteeringLoadBalancer; pools: readonly SteeringPool[]; health: HealthView },
    ctx: ClientContext,
    family: 4 | 6,
    random: () => number,
  ): PreviewView {
    const { lb, pools, health } = s;
    const poolsById = new Map<number, SteeringPool>(pools.map((p) => [p.id, p]));
    const decision = steer(lb, poolsById, ctx, family, health, random, true);
    return {
      cascade_hit: decision.cascadeHit,
      reason: decision.reason,
      servfail: decision.servfail,
      pool: decision.pool === null ? null : { id: decision.pool.id, name: decision.pool.name },
      answers: decision.members.map((m) => ({
        type: m.family === 4 ? 'A' : 'AAAA',
        address: m.address,
        member_id: m.id,
      })),
      ttl: decision.ttl,
      context: contextView(ctx),
      trace: traceView(decision.trace),
    };
  }
}
