import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { requirementKind, type AuthRequirement, type RequirementKind } from '../auth/auth-layer.ts';
import { API_PREFIX } from './api-prefix.ts';
import { kernelErrorResponses } from './error-schemas.ts';

/** Where the document and its interactive reference are served. */
export const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;
export const DOCS_PATH = '/docs';

/**
 * The credential kinds (docs/keys-and-limits.md, "Credentials") as OpenAPI security schemes.
 * Account API keys are not one: they are refused on every route. An organization key and a relay
 * key share a header name but not a route, so they are two schemes.
 */
const SECURITY_SCHEMES = {
  accessToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'A main-site access token (POST /api/v1/auth/login).',
  },
  storefrontToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'An organization customer’s access token (POST /api/v1/orgs/{org_slug}/auth/login).',
  },
  staffToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'An organization staff member’s access token (the staff sign-in of the organization).',
  },
  organizationKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'An organization API key with the route’s scope (Commerce API only; never as Bearer).',
  },
  relayKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Api-Key',
    description: 'A relay key of an SMTP relay service (mail sending only).',
  },
  partnerKey: {
    type: 'http',
    scheme: 'bearer',
    description: 'A partner key of an organization (`partner_...`; a partner’s boost claims only).',
  },
  publishableKey: {
    type: 'apiKey',
    in: 'header',
    name: 'x-publishable-api-key',
    description:
      'A shop’s publishable key (`pk_test_...` / `pk_live_...`; the Store API only, public by design).',
  },
} as const;

type Scheme = keyof typeof SECURITY_SCHEMES;

/** Which credentials a route takes, by its declared requirement (auth-layer.ts). */
const SCHEMES_OF: Readonly<Record<RequirementKind, readonly Scheme[]>> = {
  public: [],
  main: ['accessToken'],
  storefront: ['storefrontToken'],
  staff: ['staffToken'],
  relay: ['relayKey'],
  partner: ['partnerKey'],
  publishable: ['publishableKey'],
  'org:member': ['accessToken'],
  'org:admin': ['accessToken'],
  'org:owner': ['accessToken'],
  scope: ['organizationKey', 'accessToken'],
};

function securityOf(auth: AuthRequirement | undefined): Record<string, string[]>[] {
  return SCHEMES_OF[requirementKind(auth ?? 'main')].map((scheme) => ({
    [scheme]: typeof auth === 'object' && scheme === 'organizationKey' ? [auth.scope] : [],
  }));
}

/**
 * The OpenAPI 3.1 description of every /api/v1 route, generated from the routes' own schemas
 * (params, query, body, every answer status) by @fastify/swagger, with each route's credential
 * kinds as its security; served at OPENAPI_PATH without a token, and read at DOCS_PATH through
 * Swagger UI. Registered before any route, so it sees them all.
 */
export async function installOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Hosting platform API',
        version,
        description:
          'Authoritative DNS with load balancing, certificates, organizations and the platform around them. ' +
          'Errors answer `{"detail": "<message>"}` (422: `{"detail": [{type, loc, msg, input, ctx}]}`) with a ' +
          'stable code in `X-Error-Code`; 429 answers carry `Retry-After`. Unknown query parameters are ignored.',
      },
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    hideUntagged: false,
    transform: ({ schema, url, route }) => {
      const hide = !url.startsWith(`${API_PREFIX}/`) || url === OPENAPI_PATH;
      const auth = (route as RouteOptions).config?.auth;
      const tags = [url.slice(API_PREFIX.length + 1).split('/')[0] ?? 'api'];
      return {
        schema: { ...schema, hide, tags, security: securityOf(auth) } as typeof schema,
        url,
      };
    },
  });
  // The reference page and its files are public, like the document.
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.config = { ...route.config, auth: 'public' };
    });
    // Tags start folded: the reference has a few hundred operations, and rendering all of them at
    // once kept a browser busy for many seconds; a reader opens the area they came for.
    await scope.register(swaggerUi, {
      routePrefix: DOCS_PATH,
      staticCSP: true,
      uiConfig: { docExpansion: 'none', deepLinking: true },
    });
  });
  app.get(
    OPENAPI_PATH,
    {
      config: { auth: 'public' },
      schema: {
        summary: 'This document: the OpenAPI 3.1 description of the API.',
        response: {
          200: { type: 'object', additionalProperties: true },
          ...kernelErrorResponses({ config: { auth: 'public' } }),
        },
      },
    },
    async () => app.swagger(),
  );
}
