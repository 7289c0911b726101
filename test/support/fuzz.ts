/**
 * The malformed-request generator of test/fuzz.e2e-spec.ts (issue 13, item 7): it reads the routes
 * and body schemas from the OpenAPI document and derives, from a seed, requests that no route may
 * accept. Every case is reproducible from (seed, route, case index). See docs/decisions-http-edge.md,
 * "Fuzzing".
 */

/** A small seeded PRNG (mulberry32): the same seed gives the same cases on every machine. */
export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(below: number): number {
    return Math.floor(this.next() * below);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** A stable 32-bit hash (FNV-1a), so that each route gets its own stream of cases from one seed. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

type Schema = {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  maxLength?: number;
};

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  schema?: Schema;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

export interface Route {
  method: string;
  /** The OpenAPI path template, e.g. /api/admin/segments/{id}. */
  path: string;
  pathParams: string[];
  queryParams: string[];
  body?: Schema;
}

export function routesOf(doc: OpenApiDocument): Route[] {
  const methods = ['get', 'post', 'put', 'patch', 'delete'];
  return Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([method]) => methods.includes(method))
      .map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        pathParams: (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        body: op.requestBody?.content['application/json']?.schema,
      })),
  );
}

export interface FuzzCase {
  /** What the case breaks, e.g. `body: wrong type at /name`; shown with a failure. */
  kind: string;
  method: string;
  /** Path and query as sent on the wire (already percent-encoded, possibly badly). */
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/** A path value as it was, or one broken on purpose. */
type PathValues = Record<string, string>;

const JSON_TYPE = 'application/json';

/** Values no path parameter accepts: bad ids, bad encoding, overlong names, look-alikes. */
function badPathValue(rng: Prng, original: string, isId: boolean): { value: string; what: string } {
  const numeric = [
    '0',
    '-1',
    '+1',
    '1e0',
    '0x1',
    '01',
    '1.0',
    '%201',
    '1%20',
    '9'.repeat(16 + rng.int(30)),
    'NaN',
    'Infinity',
    'null',
    '%5B%5D',
  ];
  const textual = [
    'a'.repeat(101 + rng.int(2000)),
    'a'.repeat(100),
    '%',
    '%zz',
    '%C0%AF',
    '%ED%A0%80',
    '%FF%FE',
    '%E2%82',
    '%00',
    `${original}%00`,
    `${original}%20`,
    `%20${original}`,
    original.toUpperCase() === original ? `${original}x` : original.toUpperCase(),
    '..',
    '%2e%2e',
    '%2F',
    `${original}%2F..`,
    "'%20OR%201=1--",
    '%F0%9F%92%A9',
    '%EF%BF%BF',
    'fuzz-nothing-here',
  ];
  const pool = isId ? [...numeric, ...textual] : textual;
  const value = rng.pick(pool);
  return {
    value,
    what: `path ${value.length > 40 ? `${value.slice(0, 12)}…(${value.length})` : value}`,
  };
}

function queryFor(rng: Prng, route: Route): { query: string; what: string } {
  const name = route.queryParams.length > 0 ? rng.pick(route.queryParams) : 'limit';
  const values = [
    'abc',
    '-1',
    '1e3',
    '0x10',
    '1.5',
    '99999999999999999999999',
    '',
    '%zz',
    '%ED%A0%80',
    '%C0%AF',
    'x'.repeat(10_001 + rng.int(5000)),
    '%00',
    'true',
    '%5B%5D',
  ];
  const shapes = [
    () => `${name}=${rng.pick(values)}`,
    () => `${name}=1&${name}=2`,
    () => `${name}[]=1`,
    () => `${name}[a]=1`,
    () => `__proto__[x]=1&${name}=1`,
    () => `constructor=1&prototype=1`,
    () => `fuzz${rng.int(99)}=1`,
    () => `${name}`,
    () => `${'&'.repeat(1 + rng.int(50))}=`,
  ];
  const query = rng.pick(shapes)();
  return { query, what: `query ${query.length > 40 ? `${query.slice(0, 20)}…` : query}` };
}

function resolve(doc: OpenApiDocument, schema: Schema): Schema {
  let s = schema;
  for (let i = 0; s.$ref && i < 10; i++) {
    s = doc.components.schemas[s.$ref.split('/').pop() as string];
  }
  if (s.allOf) return resolve(doc, s.allOf[0]);
  if (s.oneOf) return resolve(doc, s.oneOf[0]);
  if (s.anyOf) return resolve(doc, s.anyOf[0]);
  return s;
}

/** Plausible values by property name, so that a mutation lands behind the first checks. */
const HINTS: Record<string, unknown> = {
  environment: 'development',
  project: 'default',
  type: 'release',
  operator: 'IN',
  contextName: 'appName',
  weightType: 'variable',
  stickiness: 'default',
  weight: 500,
  rootRole: 1,
  permissions: [],
  op: 'replace',
  path: '/description',
  password: 'fuzz-password-123',
  stage: 'completed',
  status: 'kept',
};

/** Whether a hint is of the schema's type (`stickiness` is a string in variants, a flag in context fields). */
function fits(hint: unknown, s: Schema): boolean {
  if (Array.isArray(hint)) return s.type === 'array';
  if (typeof hint === 'number') return s.type === 'number' || s.type === 'integer';
  return typeof hint === s.type;
}

/** A body shaped like the schema: every property present, with a plausible value. */
export function baseline(doc: OpenApiDocument, schema: Schema, name = '', depth = 0): unknown {
  const s = resolve(doc, schema);
  if (name in HINTS && fits(HINTS[name], s)) return HINTS[name];
  if (s.enum && s.enum.length > 0) return s.enum[0];
  if (s.type === 'object' || s.properties) {
    if (!s.properties || depth > 6) return { fuzz: 'x' };
    return Object.fromEntries(
      Object.entries(s.properties).map(([key, sub]) => [key, baseline(doc, sub, key, depth + 1)]),
    );
  }
  if (s.type === 'array')
    return s.items && depth <= 6 ? [baseline(doc, s.items, '', depth + 1)] : [];
  if (s.type === 'number' || s.type === 'integer') return 1;
  if (s.type === 'boolean') return true;
  if (s.format === 'date-time') return '2026-01-01T00:00:00.000Z';
  return `fuzz-${name || 'value'}`;
}

type JsonPath = Array<string | number>;

/** The locations in a baseline body of objects whose schema lists its properties. */
function closedObjects(
  doc: OpenApiDocument,
  schema: Schema,
  value: unknown,
  path: JsonPath = [],
): JsonPath[] {
  const s = resolve(doc, schema);
  if (Array.isArray(value)) {
    return s.items
      ? value.flatMap((item, i) => closedObjects(doc, s.items as Schema, item, [...path, i]))
      : [];
  }
  if (typeof value !== 'object' || value === null || !s.properties) return [];
  const props = s.properties;
  return [
    path,
    ...Object.entries(value).flatMap(([key, item]) =>
      props[key] ? closedObjects(doc, props[key], item, [...path, key]) : [],
    ),
  ];
}

/** Every location in a value, the root included: where a mutation may land. */
function locations(value: unknown, path: JsonPath = []): JsonPath[] {
  const here: JsonPath[] = [path];
  if (Array.isArray(value)) {
    value.forEach((item, i) => here.push(...locations(item, [...path, i])));
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) here.push(...locations(item, [...path, key]));
  }
  return here;
}

function getAt(value: unknown, path: JsonPath): unknown {
  return path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], value);
}

function isPrefix(a: JsonPath, b: JsonPath): boolean {
  return a.length <= b.length && a.every((k, i) => b[i] === k);
}

function setAt(value: unknown, path: JsonPath, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const parent = getAt(value, path.slice(0, -1)) as Record<string | number, unknown>;
  parent[path[path.length - 1]] = replacement;
  return value;
}

/** Objects only (arrays excluded), with the schema's `required` of the object if it has one. */
function objectLocations(value: unknown): JsonPath[] {
  return locations(value).filter((p) => {
    const v = getAt(value, p);
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  });
}

/** A value of another JSON type than `value` (never null: some fields take null on purpose). */
function wrongType(rng: Prng, value: unknown): unknown {
  const candidates: unknown[] = [];
  if (typeof value !== 'string') candidates.push('fuzz', '', '\u0000');
  if (typeof value !== 'number') candidates.push(1, -1, 1e308, 0.5);
  if (typeof value !== 'boolean') candidates.push(false, true);
  if (!Array.isArray(value)) candidates.push([], [1, 'a'], [[]]);
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    candidates.push({}, { a: 1 });
  return rng.pick(candidates);
}

/** JSON text nested `depth` levels deep; spliced in as text, since a deep value would overflow JSON.stringify. */
function nested(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array'
    ? `${'['.repeat(depth)}${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}{}${'}'.repeat(depth)}`;
}

const RESERVED = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty'];

/** Adds an own property named `key` (JSON.parse makes `__proto__` an ordinary own property). */
function withKey(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.assign(target, JSON.parse(`{${JSON.stringify(key)}:${JSON.stringify(value)}}`));
  if (key === '__proto__') {
    Object.defineProperty(target, '__proto__', {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
}

interface BodyMutation {
  what: string;
  /** The body text, or undefined for no body at all. */
  text?: string;
  contentType?: string;
}

/**
 * One way to break a body. `needsBody` says whether the route refuses a missing body (its schema
 * has required properties or is not an object): only then are "no body" and "{}" malformed.
 */
function mutateBody(
  rng: Prng,
  doc: OpenApiDocument,
  schema: Schema,
  needsBody: boolean,
): BodyMutation {
  const base = baseline(doc, schema);
  const body = structuredClone(base);
  const json = (v: unknown) => JSON.stringify(v);
  const all = locations(body);
  const inner = all.filter((p) => p.length > 0);
  const objects = objectLocations(body);
  const strings = all.filter((p) => typeof getAt(body, p) === 'string');
  const at = (p: JsonPath) => `/${p.join('/')}`;
  const mutations: Array<() => BodyMutation> = [
    () => {
      const p = rng.pick(inner.length ? inner : all);
      setAt(body, p, wrongType(rng, getAt(body, p)));
      return { what: `wrong type at ${at(p)}`, text: json(body) };
    },
    () => {
      const p = rng.pick(inner.length ? inner : all);
      setAt(body, p, wrongType(rng, getAt(body, p)));
      // A second location apart from the first (neither inside the other), so that the second
      // change cannot undo the first.
      const apart = inner.filter((q) => !isPrefix(p, q) && !isPrefix(q, p));
      if (apart.length === 0) return { what: `wrong type at ${at(p)}`, text: json(body) };
      const q = rng.pick(apart);
      setAt(body, q, wrongType(rng, getAt(body, q)));
      return { what: `wrong types at ${at(p)} and ${at(q)}`, text: json(body) };
    },
    () => {
      const resolved = resolve(doc, schema);
      const required = resolved.required ?? [];
      if (required.length === 0 || Array.isArray(body)) return mutations[0]();
      const key = rng.pick(required);
      delete (body as Record<string, unknown>)[key];
      return { what: `missing ${key}`, text: json(body) };
    },
    () => {
      // Unknown properties, in any object whose schema lists its properties (free maps such as
      // strategy parameters take any name).
      const closed = closedObjects(doc, schema, body);
      if (closed.length === 0) return mutations[0]();
      const p = rng.pick(closed);
      withKey(
        getAt(body, p) as Record<string, unknown>,
        `fuzz${rng.int(1000)}`,
        rng.pick([1, 'x', null, {}]),
      );
      return { what: `unknown property at ${at(p)}`, text: json(body) };
    },
    () => {
      const p = rng.pick(objects.length ? objects : [[]]);
      const key = rng.pick(RESERVED);
      const target = getAt(body, p);
      const value = rng.pick<unknown>([1, 'x', {}, { polluted: true }, null]);
      if (typeof target === 'object' && target !== null && !Array.isArray(target)) {
        withKey(target as Record<string, unknown>, key, value);
        return { what: `${key} at ${at(p)}`, text: json(body) };
      }
      return { what: `${key} at /`, text: `{${json(key)}:${json(value)}}` };
    },
    () => {
      const p = rng.pick(strings.length ? strings : inner.length ? inner : all);
      // Past every declared limit (10000 at most) and, sometimes, past the 100 KiB body limit.
      const length = rng.pick([10_001, 20_000 + rng.int(50_000), 110_000]);
      setAt(body, p, 'x'.repeat(length));
      return { what: `string of ${length} at ${at(p)}`, text: json(body) };
    },
    () => {
      const p = rng.pick(strings.length ? strings : inner.length ? inner : all);
      const lone = rng.pick(['\ud800', '\udfff', 'a\ud83d', '\udc00b']);
      // JSON.stringify writes a lone surrogate as an escape, as a hostile client would.
      setAt(body, p, `fuzz${lone}`);
      return { what: `unpaired surrogate at ${at(p)}`, text: json(body) };
    },
    () => {
      if (Array.isArray(body)) return mutations[0]();
      withKey(body as Record<string, unknown>, `k\ud800`, 1);
      return { what: 'unpaired surrogate in a key', text: json(body) };
    },
    () => {
      const p = rng.pick(inner.length ? inner : all);
      const depth = rng.pick([65, 100, 1_500, 3_000, 20_000]);
      const marker = '\u0000fuzz-nested\u0000';
      const text = json(setAt(body, p, marker)).replace(
        json(marker),
        nested(depth, rng.chance(0.5) ? 'array' : 'object'),
      );
      return { what: `nested ${depth} deep at ${at(p)}`, text };
    },
    () => {
      const text = rng.pick([
        '{',
        '{"a":}',
        "{'name':'x'}",
        '{"name":"x",}',
        '[1,]',
        'NaN',
        '{"a":NaN}',
        '{"a":1e999999}',
        '   ',
        '"unterminated',
        'nul',
        '{"a":"\\x41"}',
        '{"a":"\\ud800"}',
        `${json(body)}garbage`,
        `${json(body)}${json(body)}`,
      ]);
      return { what: `invalid JSON ${text.slice(0, 20)}`, text };
    },
    () => {
      // An empty array is a valid body where the schema is a list (an empty JSON Patch).
      const values: unknown[] = [null, 0, 'text', true, [base], 1e308];
      if (!Array.isArray(base)) values.push([]);
      const value = rng.pick(values);
      return { what: `body is ${json(value)}`, text: json(value) };
    },
    () => {
      // An array where a nested object belongs: @ValidateNested() descends into arrays.
      const nestedObjects = objects.filter((p) => p.length > 0);
      if (nestedObjects.length === 0) return mutations[0]();
      const p = rng.pick(nestedObjects);
      const value = rng.pick<unknown>([[], [[]], [getAt(body, p)]]);
      setAt(body, p, value);
      return { what: `array for the object at ${at(p)}`, text: json(body) };
    },
    () => {
      const required = Array.isArray(body) ? [] : (resolve(doc, schema).required ?? []);
      if (required.length === 0) return mutations[0]();
      const key = rng.pick(required);
      (body as Record<string, unknown>)[key] = null;
      return { what: `null for required ${key}`, text: json(body) };
    },
    // Bytes that are not UTF-8 inside a string of an otherwise plausible body (see invalidUtf8).
    () => ({ what: 'invalid UTF-8', text: json(body) }),
    () => {
      const contentType = rng.pick([
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=fuzz',
        'application/xml',
        'application/octet-stream',
        'application/jsonx',
        'json',
        '',
        'application/json-seq',
        'text/json',
      ]);
      return { what: `content type "${contentType}"`, text: json(body), contentType };
    },
  ];
  if (needsBody) {
    mutations.push(
      () => ({ what: 'empty body', text: '' }),
      () => ({ what: 'no body', text: undefined }),
      () => ({ what: 'body {}', text: Array.isArray(body) ? '{}' : '[]' }),
    );
  }
  return rng.pick(mutations)();
}

export interface CaseOptions {
  /** The value of each path parameter that names an existing resource. */
  pathValue: (route: Route, param: string) => string;
  token: string;
}

/** Methods that change data: their cases must be malformed in the path when they take no body. */
function isWrite(route: Route): boolean {
  return route.method !== 'GET';
}

/** Whether the route refuses a missing body: only then is "no body" a malformed request. */
function needsBody(doc: OpenApiDocument, route: Route): boolean {
  if (!route.body) return false;
  if (route.body.oneOf || route.body.anyOf) return false; // e.g. PATCH: a JSON Patch array or an object
  const s = resolve(doc, route.body);
  return s.type === 'array' || (s.required ?? []).length > 0;
}

/**
 * Case number `index` of a route. A write without a body always gets a broken path value, so
 * that no case can legitimately succeed; a route with a body gets a broken body (and sometimes a
 * broken path or query as well); a read gets any mix.
 */
export function fuzzCase(
  doc: OpenApiDocument,
  route: Route,
  seed: number,
  index: number,
  options: CaseOptions,
): FuzzCase {
  const rng = new Prng(hash32(`${seed}:${route.method} ${route.path}:${index}`));
  const what: string[] = [];
  const values: PathValues = {};
  for (const p of route.pathParams) values[p] = encodeURIComponent(options.pathValue(route, p));
  const mustBreakPath = route.pathParams.length > 0 && isWrite(route) && !route.body;
  const breakPath =
    route.pathParams.length > 0 && (mustBreakPath || rng.chance(route.body ? 0.2 : 0.6));
  if (breakPath) {
    const param = rng.pick(route.pathParams);
    const isId = /id$/i.test(param);
    const bad = badPathValue(rng, values[param], isId);
    values[param] = bad.value;
    what.push(`${param}: ${bad.what}`);
  }
  let url = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => values[name]);
  const breakQuery = route.queryParams.length > 0 ? rng.chance(0.7) : rng.chance(0.15);
  if (breakQuery) {
    const q = queryFor(rng, route);
    url += `?${q.query}`;
    what.push(q.what);
  }
  const headers: Record<string, string> = { authorization: options.token };
  let body: Buffer | undefined;
  if (route.body) {
    const m = mutateBody(rng, doc, route.body, needsBody(doc, route));
    what.push(`body: ${m.what}`);
    if (m.text !== undefined) {
      body = m.what === 'invalid UTF-8' ? invalidUtf8(m.text) : Buffer.from(m.text, 'utf8');
      headers['content-type'] = m.contentType ?? JSON_TYPE;
    }
  } else if (rng.chance(0.3) || (!isWrite(route) && what.length === 0)) {
    // A body where none belongs, or a read's query: bodiless routes must not trip on either.
    const extra = rng.pick([
      { text: '{', type: JSON_TYPE },
      { text: '{"__proto__":{"x":1}}', type: JSON_TYPE },
      { text: '[[[[', type: JSON_TYPE },
      { text: `${'['.repeat(5000)}${']'.repeat(5000)}`, type: JSON_TYPE },
      { text: 'a=1', type: 'application/x-www-form-urlencoded' },
      { text: 'hello', type: 'text/plain' },
      { text: '', type: JSON_TYPE },
    ]);
    body = Buffer.from(extra.text, 'utf8');
    headers['content-type'] = extra.type;
    what.push(`extra body ${extra.type} ${extra.text.slice(0, 12)}`);
  }
  if (rng.chance(0.04)) {
    headers.authorization = rng.pick([
      '',
      'Bearer',
      'Bearer ',
      'Basic Zm9vOmJhcg==',
      'x'.repeat(5000),
      'Bearer *:*.\u00ff',
    ]);
    what.push('bad token');
  }
  return { kind: what.join('; '), method: route.method, url, headers, body };
}

/** A body whose text is replaced at the end by bytes that are not UTF-8 (a lone 0xFF, CESU-8). */
function invalidUtf8(text: string): Buffer {
  const cut = Math.max(0, text.lastIndexOf('"'));
  return Buffer.concat([
    Buffer.from(text.slice(0, cut), 'utf8'),
    Buffer.from([0xff, 0xed, 0xa0, 0x80]),
    Buffer.from(text.slice(cut), 'utf8'),
  ]);
}
