import type { Static } from 'typebox';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { BoostBody, BoostParams, BoostQuery, BoostResponse } from './boosts-schemas.ts';
import type { BoostClaim, BoostsService } from './boosts-service.ts';

/** A form body's largest size: three short fields. */
const FORM_BODY_LIMIT = 4 * 1024;

/**
 * `POST /orgs/{org_slug}/partners/{partner}/boosts` (a partner key as Bearer): the fields in a
 * JSON or URL-encoded form body, or in the query string (a body field wins over the query's).
 * The form parser is registered in this route's own scope, so no other route reads forms.
 */
export function registerBoostRoutes(app: ModuleApp, service: BoostsService): void {
  void app.register(async (scope: ModuleApp) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    scope.post(
      '/orgs/:org_slug/partners/:partner/boosts',
      {
        schema: {
          summary: 'A partner’s boost: more memory for a while for the free game server behind a route',
          description:
            'Needs a partner key of this organization and partner. server_address is a game route’s ' +
            '<subdomain>.<base_domain> or its verified custom domain; its upstream must be an active game ' +
            'server service of this organization on a free plan, with no boost running. A claim_id already ' +
            'granted answers that grant again; dry_run checks everything and grants nothing.',
          params: BoostParams,
          querystring: BoostQuery,
          body: BoostBody,
          response: { 200: BoostResponse, ...errorResponses(403, 409, 415) },
        },
        config: {
          auth: 'partner',
          audit: false,
          optionalBody: true,
          formBody: true,
        },
      },
      async (request) => {
        const principal = request.principal;
        const who = {
          orgId: principal.orgId!,
          partner: principal.partner!,
          owner: await request.owner(),
          ip: request.ip,
        };
        return service.claim(who, claimOf(request.body ?? {}, request.query));
      },
    );
  });
}

/** The claim from the body, else the query string; a missing server_address is 422. */
function claimOf(body: Static<typeof BoostBody>, query: Static<typeof BoostQuery>): BoostClaim {
  const addressFrom = body.server_address !== undefined ? 'body' : 'query';
  const serverAddress = body.server_address ?? query.server_address;
  if (serverAddress === undefined)
    throw invalidField(['body', 'server_address'], 'Field required', null, 'missing');
  const dryRun = body.dry_run ?? query.dry_run ?? false;
  return {
    serverAddress,
    addressFrom,
    claimId: body.claim_id ?? query.claim_id ?? null,
    dryRun: dryRun === true || dryRun === 'true' || dryRun === '1',
  };
}
