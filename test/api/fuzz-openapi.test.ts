import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET_FIELDS } from '../../src/kernel/log/secret-field-names.ts';
import { issuePartnerKey } from '../../src/modules/keys/index.ts';
import { orderRelay, relayKey } from '../../src/testing/mail-relay-fixture.ts';
import { createOrg, staffLogin, storefrontCustomer } from '../../src/testing/org-fixture.ts';
import { createSeededRandom, type SeededRandom } from '../../src/testing/seeded-random.ts';
import { startTestApp, type TestApp } from '../../src/testing/test-app.ts';

/**
 * A schema-driven fuzzer over the whole API: for every operation of the OpenAPI document it sends
 * each parameter and body field in the wrong kind (text, numbers out of range, objects, lists,
 * null, huge text), ids past any column, JSON nested 100 and 5,000 deep, and bodies that are not
 * JSON — with a marker secret in every secret-named field — as a caller who gets past
 * authentication. No answer may be a 5xx, carry the marker, or be a 422 over 64 KiB.
 * Seeded: a failure replays from FUZZ_SEED.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 0x33a);
const MARKER = 'fz-marker-5e1c0d9b';
/**
 * Fields whose values are secrets: the one list the kernel masks in answers and logs, but for a
 * field whose schema says its value is public (`x-public`: a promotion's code is printed on flyers).
 */
const isSecret = (name: string, schema?: Schema): boolean =>
  SECRET_FIELDS.has(name) && schema?.['x-public'] !== true;
/** Stands for a number JSON can carry and no column can: replaced in the text after stringify. */
const HUGE = '__fz_huge__';
const HUGE_NUMBER = '99999999999999999999';
const LARGEST_422 = 64 * 1024;

type Schema = Record<string, unknown>;
interface Parameter {
  readonly name: string;
  readonly in: string;
  readonly required?: boolean;
  readonly schema?: Schema;
}
interface Operation {
  readonly parameters?: Parameter[];
  readonly requestBody?: { content?: Record<string, { schema?: Schema }> };
  readonly security?: Record<string, string[]>[];
}
interface Probe {
  readonly method: string;
  readonly path: string;
  readonly query: Record<string, string>;
  readonly headers: Record<string, string>;
  readonly body?: string;
  readonly what: string;
}

function typesOf(schema: Schema): string[] {
  const t = schema.type;
  if (Array.isArray(t)) return t as string[];
  if (typeof t === 'string') return [t];
  if (schema.properties !== undefined) return ['object'];
  return [];
}

const CANDIDATES = [
  'example.com',
  'a',
  'abc',
  '1',
  'fuzz',
  'a-b',
  'A',
  '00',
  'ab12',
  'en',
  'www.example.com',
];

/** Values by field name, where the schema alone says too little (a host name, a URL). */
const NAME_HINTS: Record<string, string> = {
  domain: 'fuzz-zone.example',
  name: 'www',
  url: 'https://example.com/hook',
  email: 'fuzz@example.com',
  slug: 'fuzz-slug',
  content: '192.0.2.1',
  source_type: 'dns_zone',
};

/** A value the schema takes (or close to one): the base every mutation changes one part of. */
function valid(schema: Schema | undefined, name = ''): unknown {
  if (schema === undefined) return 'a';
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  for (const key of ['anyOf', 'oneOf']) {
    const options = schema[key] as Schema[] | undefined;
    if (options !== undefined) {
      const first = options.find((o) => !typesOf(o).includes('null')) ?? options[0];
      return valid(first, name);
    }
  }
  const type = typesOf(schema).find((x) => x !== 'null') ?? typesOf(schema)[0];
  switch (type) {
    case 'integer':
    case 'number': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : 1;
      return Math.max(min, 1) <= ((schema.maximum as number | undefined) ?? Infinity)
        ? Math.max(min, 1)
        : min;
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      const min = (schema.minItems as number | undefined) ?? 0;
      return Array.from({ length: min }, () => valid(schema.items as Schema | undefined));
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      const props = (schema.properties ?? {}) as Record<string, Schema>;
      for (const key of (schema.required as string[] | undefined) ?? []) out[key] = valid(props[key], key);
      return out;
    }
    case 'string': {
      if (isSecret(name, schema)) return `${MARKER}-valid`;
      if (NAME_HINTS[name] !== undefined) return NAME_HINTS[name];
      switch (schema.format) {
        case 'email':
          return 'fuzz@example.com';
        case 'date-time':
          return '2026-01-01T00:00:00Z';
        case 'date':
          return '2026-01-01';
        case 'uri':
        case 'url':
          return 'https://example.com/hook';
        case 'ipv4':
          return '192.0.2.1';
        case 'ipv6':
          return '2001:db8::1';
        case 'hostname':
          return 'example.com';
        case 'uuid':
          return '00000000-0000-4000-8000-000000000000';
      }
      const min = (schema.minLength as number | undefined) ?? 0;
      if (typeof schema.pattern === 'string') {
        const re = new RegExp(schema.pattern as string, 'u');
        const hit = CANDIDATES.find((c) => re.test(c));
        if (hit !== undefined) return hit;
      }
      return 'a'.repeat(Math.max(min, 1));
    }
    default:
      return 'a';
  }
}

/** Wrong kinds for a field: each differs from what the schema wants in one way. */
function wrongKinds(name: string, random: SeededRandom, schema?: Schema): unknown[] {
  const kinds: unknown[] = [
    'text',
    123,
    -1,
    1.5,
    HUGE,
    `-${HUGE}`,
    2 ** 31,
    -(2 ** 31) - 1,
    2 ** 53 + 2,
    true,
    null,
    {},
    [],
    { a: [1, { b: 'c' }] },
    ['a', 2],
    'x'.repeat(300_000),
    '',
  ];
  if (isSecret(name, schema)) kinds.push(MARKER, { value: MARKER }, [MARKER]);
  // Every kind for ids and secret fields; a seeded half of them for the rest.
  if (/(^|_)id$/.test(name) || isSecret(name, schema)) return kinds;
  return kinds.filter(() => random.next() < 0.6);
}

const PATH_KINDS = [
  'abc',
  '-1',
  '0',
  '1.5',
  HUGE_NUMBER,
  `-${HUGE_NUMBER}`,
  '1e400',
  'x'.repeat(3000),
  '%00',
];
const QUERY_KINDS = [
  'abc',
  '-1',
  '0',
  '1.5',
  HUGE_NUMBER,
  `-${HUGE_NUMBER}`,
  '2147483648',
  '9007199254740993',
  '',
  'x'.repeat(3000),
  'true',
];

function toJson(value: unknown): string {
  return JSON.stringify(value)
    .replaceAll(`"-${HUGE}"`, `-${HUGE_NUMBER}`)
    .replaceAll(`"${HUGE}"`, HUGE_NUMBER);
}

/** Object schemas of the body a field at most two levels down belongs to, with their paths. */
function fieldsOf(
  schema: Schema,
  base: unknown,
  prefix: string[] = [],
): { path: string[]; name: string; schema: Schema }[] {
  const out: { path: string[]; name: string; schema: Schema }[] = [];
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  for (const [name, child] of Object.entries(props)) {
    out.push({ path: [...prefix, name], name, schema: child });
    if (prefix.length < 1 && typesOf(child).includes('object') && child.properties !== undefined)
      out.push(...fieldsOf(child, base, [...prefix, name]));
  }
  return out;
}

function withField(base: unknown, path: string[], value: unknown): unknown {
  const copy = structuredClone(base ?? {}) as Record<string, unknown>;
  let at: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    if (typeof at[key] !== 'object' || at[key] === null || Array.isArray(at[key])) at[key] = {};
    at = at[key] as Record<string, unknown>;
  }
  at[path.at(-1)!] = value;
  return copy;
}

describe('the API under a schema-driven fuzzer', () => {
  let t: TestApp;
  let doc: { paths: Record<string, Record<string, Operation>> };
  const credentials: Record<string, Record<string, string>> = {};
  let slug = '';
  /** Path ids of objects that exist, so that routes below them are reached. */
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestApp({ env: { LIMITS_EXEMPT: '127.0.0.1/32' } });
    const owner = await t.signUp();
    slug = `fuzz-${SEED.toString(16)}`;
    await createOrg(t, owner.token, slug);
    const enable = await t.request('PATCH', `/api/v1/orgs/${slug}/settings`, {
      token: owner.token,
      body: { commerce_enabled: true },
    });
    expect(enable.status, enable.text).toBe(200);
    const customer = await storefrontCustomer(t, slug, 'customer@example.com');
    const staff = await staffLogin(t, slug, owner.email);
    const key = await t.request('POST', `/api/v1/orgs/${slug}/api-keys`, {
      token: owner.token,
      body: { label: 'fuzz', permissions: { scopes: ['commerce:*'] } },
    });
    expect(key.status, key.text).toBe(201);
    const zone = await t.request('POST', '/api/v1/dns/zones', {
      token: owner.token,
      body: { domain: 'fuzz-zone.example' },
    });
    expect(zone.status, zone.text).toBe(201);
    ids.zone_id = String((zone.body as { id: number }).id);
    const relay = await orderRelay(t, owner.token);
    ids.service_id = String(relay);
    credentials.relayKey = { 'x-api-key': await relayKey(t, owner.token, relay) };
    credentials.accessToken = { authorization: `Bearer ${owner.token}` };
    credentials.storefrontToken = { authorization: `Bearer ${customer.token}` };
    credentials.staffToken = { authorization: `Bearer ${staff.token}` };
    credentials.organizationKey = { 'x-api-key': (key.body as { raw_key: string }).raw_key };
    ids.partner = 'fuzz-partner';
    const partnerKey = await issuePartnerKey(t.node.runtime, slug, ids.partner);
    credentials.partnerKey = { authorization: `Bearer ${partnerKey.raw}` };
    const res = await t.request('GET', '/api/v1/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body as typeof doc;
  });
  afterAll(async () => t?.close());

  it('answers no 5xx, echoes no secret and keeps every 422 small, on every operation', async () => {
    const random = createSeededRandom(SEED);
    const probes: Probe[] = [];
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
    );
    // Deleting comes last, so the organization and its credentials serve every other operation.
    operations.sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    for (const { path, method, op } of operations) {
      const params = op.parameters ?? [];
      // Each request carries one of the credentials the operation takes (a key or a token, by turns).
      const schemes = (op.security ?? []).map((x) => Object.keys(x)[0]!).filter((x) => credentials[x]);
      const auth = () => (schemes.length === 0 ? {} : credentials[random.pick(schemes)]!);
      const pathValues: Record<string, string> = {};
      for (const p of params.filter((x) => x.in === 'path'))
        pathValues[p.name] = p.name === 'org_slug' ? slug : (ids[p.name] ?? String(valid(p.schema, p.name)));
      const query: Record<string, string> = {};
      for (const p of params.filter((x) => x.in === 'query' && x.required === true))
        query[p.name] = String(valid(p.schema, p.name));
      const urlOf = (values: Record<string, string>) =>
        path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? '1'));
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      const base = bodySchema === undefined ? undefined : valid(bodySchema);
      const json = () => ({ 'content-type': 'application/json', ...auth() });
      const add = (what: string, p: Partial<Probe>) =>
        probes.push({
          method,
          path: urlOf(pathValues),
          query,
          headers: auth(),
          what: `${method} ${path} ${what}`,
          ...p,
        });

      // Reads as they should be sent too (state-changing ones only with a body, below).
      if (method === 'GET') add('as described', {});
      for (const p of params.filter((x) => x.in === 'path')) {
        const kinds = isSecret(p.name) ? [...PATH_KINDS, MARKER] : PATH_KINDS;
        for (const kind of kinds)
          add(`path ${p.name}=${kind.slice(0, 20)}`, { path: urlOf({ ...pathValues, [p.name]: kind }) });
      }
      for (const p of params.filter((x) => x.in === 'query')) {
        const kinds = isSecret(p.name) ? [...QUERY_KINDS, MARKER] : QUERY_KINDS;
        for (const kind of kinds)
          add(`query ${p.name}=${kind.slice(0, 20)}`, { query: { ...query, [p.name]: kind } });
      }
      if (bodySchema !== undefined) {
        add('valid body', { headers: json(), body: toJson(base) });
        for (const field of fieldsOf(bodySchema, base)) {
          for (const kind of wrongKinds(field.name, random, field.schema)) {
            const body = withField(base, field.path, kind);
            add(`body ${field.path.join('.')}=${String(JSON.stringify(kind)).slice(0, 20)}`, {
              headers: json(),
              body: toJson(body),
            });
          }
        }
        for (const whole of [[], 'text', 1, null, [MARKER]])
          add(`body=${JSON.stringify(whole)}`, { headers: json(), body: toJson(whole) });
      }
      if (method !== 'GET') {
        // Secret-named fields the route does not take: refused as extra, never echoed.
        const taken = (bodySchema?.properties ?? {}) as Record<string, Schema>;
        const secrets = Object.fromEntries(
          ['password', 'token', 'secret', 'code']
            .filter((k) => isSecret(k, taken[k]))
            .map((k) => [k, MARKER]),
        );
        add('secret extras', { headers: json(), body: toJson({ ...(base as object), ...secrets }) });
        for (const depth of [100, 5000]) {
          add(`objects nested ${depth}`, {
            headers: json(),
            body: '{"a":'.repeat(depth) + '1' + '}'.repeat(depth),
          });
          add(`lists nested ${depth}`, { headers: json(), body: '['.repeat(depth) + ']'.repeat(depth) });
        }
        add('malformed JSON', { headers: json(), body: `{"password": "${MARKER}", ` });
        add('bare text as JSON', { headers: json(), body: MARKER });
        add('text/plain', {
          headers: { ...auth(), 'content-type': 'text/plain' },
          body: `{"password": "${MARKER}", "token": "${MARKER}"}`,
        });
        add('application/xml', {
          headers: { ...auth(), 'content-type': 'application/xml' },
          body: `<login><password>${MARKER}</password></login>`,
        });
      }
    }

    const problems: string[] = [];
    const statuses = new Map<string, Set<number>>();
    let next = 0;
    const worker = async () => {
      while (next < probes.length) {
        const probe = probes[next++]!;
        const qs = new URLSearchParams(probe.query).toString();
        const res = await fetch(`${t.url}${probe.path}${qs === '' ? '' : `?${qs}`}`, {
          method: probe.method,
          headers: probe.headers,
          ...(probe.body !== undefined ? { body: probe.body } : {}),
        });
        const text = await res.text();
        const key = `${probe.method} ${probe.what.split(' ')[1]}`;
        if (!statuses.has(key)) statuses.set(key, new Set());
        statuses.get(key)!.add(res.status);
        if (res.status >= 500) problems.push(`${res.status} ${probe.what}: ${text.slice(0, 200)}`);
        if (text.includes(MARKER)) problems.push(`echo ${res.status} ${probe.what}: ${text.slice(0, 200)}`);
        if (res.status === 422 && text.length > LARGEST_422)
          problems.push(`422 of ${text.length} bytes ${probe.what}`);
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));

    console.log(`fuzzed ${operations.length} operations with ${probes.length} requests (seed ${SEED})`);
    if (process.env.FUZZ_REPORT) {
      console.log(problems.join('\n'));
      for (const [k, v] of statuses) console.log(`statuses ${k} ${[...v].sort().join(',')}`);
    }
    expect(problems, problems.slice(0, 40).join('\n')).toEqual([]);
    // The credentials worked: every operation answered something other than 401 at least once.
    const onlyUnauthorized = [...statuses].filter(([, s]) => s.size === 1 && s.has(401)).map(([k]) => k);
    expect(onlyUnauthorized).toEqual([]);
  }, 300_000);
});
