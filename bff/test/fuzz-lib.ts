import fc from 'fast-check';
import { conforming, encode, formPairs, hostileValue, wrongValue, type JsonSchema } from './fuzz-values.ts';

/**
 * Generators of hostile requests, derived from the OpenAPI document the server publishes (so a
 * route is fuzzed the moment it is declared). Shared by the bounded run in `fuzz.test.ts` and
 * the longer one of `scripts/fuzz.ts`. A generated case is plain data: fixture IDs are
 * placeholders filled when the case is sent, so a case can be printed and replayed.
 */

interface OpenApiOperation {
  parameters?: { name: string; in: string; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, unknown> }>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
}

/** One operation of the document, as the fuzzer needs it. */
export interface Operation {
  method: string;
  /** Express-style path relative to /api/v4, e.g. /groups/:id/hooks/:hook_id. */
  path: string;
  pathParams: string[];
  query: { name: string; schema: JsonSchema }[];
  body?: JsonSchema;
  /** The multipart file field, for routes that take an upload. */
  upload?: string;
  /** Its success answers with a file (raw content, an avatar, a download), not JSON. */
  answersFile: boolean;
  /**
   * The 5xx statuses it documents: answers about an outside service it depends on (an AI gateway
   * not configured or down: 503), not failures of its own.
   */
  documented5xx: number[];
}

export function operationsOf(doc: OpenApiDocument): Operation[] {
  const ops: Operation[] = [];
  for (const [template, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const params = op.parameters ?? [];
      const content = op.requestBody?.content ?? {};
      const body = content['application/json']?.schema;
      const multipart = content['multipart/form-data']?.schema;
      const upload = Object.entries(multipart?.properties ?? {}).find(([, s]) => s.format === 'binary')?.[0];
      ops.push({
        method,
        path: template.replace(/\{([A-Za-z_]+)\}/g, ':$1'),
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        query: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema ?? {} })),
        body,
        upload,
        answersFile: Object.entries(op.responses ?? {}).some(([code, r]) => /^2\d\d$/.test(code) && code !== '204' && !r.content?.['application/json']),
        documented5xx: Object.keys(op.responses ?? {}).filter((code) => /^5\d\d$/.test(code)).map(Number),
      });
    }
  }
  return ops;
}

// ─── bodies ────────────────────────────────────────────────────────────────────────────

type Mutation =
  | { kind: 'valid' }
  | { kind: 'drop'; index: number }
  | { kind: 'set'; key: string; value: unknown }[]
  | { kind: 'extra'; key: string; value: unknown }
  | { kind: 'replace'; value: unknown };

/**
 * Mostly one thing wrong at a time: a base that passes validation with a single field at the
 * edge of its schema (or hostile) is what reaches the services and the database; several at
 * once rarely get past the schema. Unbroken bases go too: the schema's own patterns make
 * plausible values (a date 4500-54-02).
 */
function mutationArb(schema: JsonSchema): fc.Arbitrary<Mutation> {
  const props = schema.properties ?? {};
  const keys = Object.keys(props);
  const set = keys.length
    ? fc.constantFrom(...keys).chain((key) => wrongValue(props[key]).map((value) => ({ kind: 'set' as const, key, value })))
    : fc.constant(null);
  return fc.oneof(
    { arbitrary: fc.constant({ kind: 'valid' as const }), weight: 4 },
    { arbitrary: fc.nat().map((index) => ({ kind: 'drop' as const, index })), weight: 2 },
    { arbitrary: set.map((m) => (m ? [m] : { kind: 'valid' as const })), weight: 6 },
    { arbitrary: fc.array(set, { minLength: 2, maxLength: 3 }).map((list) => list.filter((m) => m !== null)), weight: 1 },
    {
      arbitrary: fc.record({
        kind: fc.constant('extra' as const),
        key: fc.oneof(fc.constantFrom('__proto__', 'constructor', 'admin', 'id', 'is_admin', 'user_id', '', 'a\u0000b', 'x'.repeat(300)), fc.string({ maxLength: 10 })),
        value: hostileValue,
      }),
      weight: 1,
    },
    { arbitrary: fc.record({ kind: fc.constant('replace' as const), value: hostileValue }), weight: 2 },
  );
}

function mutate(base: unknown, schema: JsonSchema, m: Mutation): unknown {
  const keys = Object.keys(schema.properties ?? {});
  const obj = base && typeof base === 'object' && !Array.isArray(base) ? { ...(base as Record<string, unknown>) } : {};
  if (Array.isArray(m)) {
    for (const s of m) obj[s.key] = s.value;
    return obj;
  }
  switch (m.kind) {
    case 'valid':
      return base;
    case 'drop': {
      const required = schema.required?.length ? schema.required : keys;
      if (required.length) delete obj[required[m.index % required.length]];
      return obj;
    }
    case 'extra':
      // defineProperty, so "__proto__" becomes an own key that JSON.stringify writes out.
      Object.defineProperty(obj, m.key, { value: m.value, enumerable: true, configurable: true, writable: true });
      return obj;
    case 'replace':
      return m.value;
  }
}

/** A body as sent on the wire. `bytes` is used for bodies without a Content-Type of their own. */
export interface WireBody {
  contentType?: string;
  text?: string;
  bytes?: readonly number[];
  /** How this body was made, for the report. */
  kind: string;
}

const MALFORMED_JSON = ['{', '{"name":', '{"a":1,}', "{'a':1}", '[1,2', '{"a":"\\x00"}', '{"a":01}', 'nul', 'undefined', '\ufeff{}', '{"a":NaN}', '{"a":1}{"b":2}', '\u0000', '"unterminated', '{"a":"\\ud800"}'];

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/vnd.api+json', 'application/merge-patch+json', 'application/json; charset=latin1', 'application/json; charset=utf-16', 'application/json; charset=bogus', 'application/json;;;'];
const ODD_TYPES = ['text/xml', 'application/xml', 'application/octet-stream', 'image/png', 'text/csv', 'multipart/mixed; boundary=x', 'application/x-www-form-urlencoded; charset=utf-16', 'garbage', '*/*', 'text/plain', 'application/', ';', 'multipart/form-data; boundary="unterminated'];

const encodePairs = (pairs: [string, string][]) => pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');

function multipartText(boundary: string, pairs: [string, string][]): string {
  return `${pairs.map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join('')}--${boundary}--\r\n`;
}

/** Multipart with a file part, as bytes: the file's content is binary, the rest UTF-8. */
function multipartBytes(boundary: string, pairs: [string, string][], file: { field: string; name: string; content: readonly number[]; type: string }): number[] {
  const fields = pairs.map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join('');
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`;
  return [...Buffer.from(fields + head), ...file.content, ...Buffer.from(`\r\n--${boundary}--\r\n`)];
}

/** The first bytes of a PNG: enough for a server that sniffs the type. */
export const PNG_BYTES = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0];
const PNG_HEAD = Buffer.from(PNG_BYTES).toString('latin1');

/** Multipart bodies a parser must refuse cleanly. */
export const MALFORMED_MULTIPART: WireBody[] = [
  { kind: 'multipart without a boundary', contentType: 'multipart/form-data', text: '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nv\r\n--x--\r\n' },
  { kind: 'multipart ending early', contentType: 'multipart/form-data; boundary=x', text: '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nvalue' },
  { kind: 'multipart with a NUL in a part header', contentType: 'multipart/form-data; boundary=x', text: '--x\r\nContent-Disposition: form-data; name="na\u0000me"\r\n\r\nv\r\n--x--\r\n' },
  { kind: 'multipart part without headers', contentType: 'multipart/form-data; boundary=x', text: '--x\r\n\r\n\r\n--x--\r\n' },
  { kind: 'multipart with another boundary', contentType: 'multipart/form-data; boundary=y', text: '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nv\r\n--x--\r\n' },
  { kind: 'multipart with an empty boundary', contentType: 'multipart/form-data; boundary=', text: '--\r\nContent-Disposition: form-data; name="name"\r\n\r\nv\r\n----\r\n' },
  { kind: 'multipart with a 200-character boundary', contentType: `multipart/form-data; boundary=${'b'.repeat(200)}`, text: `--${'b'.repeat(200)}\r\nContent-Disposition: form-data; name="name"\r\n\r\nv\r\n--${'b'.repeat(200)}--\r\n` },
  { kind: 'multipart with an empty body', contentType: 'multipart/form-data; boundary=x', text: '' },
  { kind: 'multipart with a nameless part', contentType: 'multipart/form-data; boundary=x', text: '--x\r\nContent-Disposition: form-data; name=\r\n\r\nv\r\n--x--\r\n' },
  { kind: 'multipart with a broken Content-Disposition', contentType: 'multipart/form-data; boundary=x', text: '--x\r\nContent-Disposition: ;;;"\r\n\r\nv\r\n--x--\r\n' },
  { kind: 'multipart with 250 fields', contentType: 'multipart/form-data; boundary=x', text: multipartText('x', Array.from({ length: 250 }, (_, i) => [`f${i}`, 'v'] as [string, string])) },
  {
    kind: 'multipart with three files',
    contentType: 'multipart/form-data; boundary=x',
    text: ['a', 'b', 'c'].map((n) => `--x\r\nContent-Disposition: form-data; name="${n}"; filename="${n}.png"\r\nContent-Type: image/png\r\n\r\n${PNG_HEAD}\r\n`).join('') + '--x--\r\n',
  },
  { kind: 'multipart with a header line of 20,000 characters', contentType: 'multipart/form-data; boundary=x', text: `--x\r\nContent-Disposition: form-data; name="${'n'.repeat(20_000)}"\r\n\r\nv\r\n--x--\r\n` },
];

/** A body value: a base that conforms to the operation's schema, broken by one mutation (or none). */
function bodyValueArb(op: Operation): fc.Arbitrary<unknown> {
  const schema = op.body ?? { type: 'object', properties: {} };
  return fc.tuple(conforming(schema), mutationArb(schema)).map(([base, m]) => mutate(base, schema, m));
}

// Built once for every operation's generator (each of them is hundreds of kilobytes to megabytes).
const RAW_FORMS = ['a[=1&&=&%%%', '%ZZ=1', `${'a['.repeat(30)}=1`, 'name[]=1&name[0]=2&name[a]=3', `${Array.from({ length: 1500 }, (_, i) => `p${i}=1`).join('&')}`, 'name=%00', 'name=%C0%AF', '=', '&&&', `name=${'x'.repeat(2_000_000)}`];
const UPLOADS: readonly (readonly number[])[] = [PNG_BYTES, [...Buffer.from('not an image')], [], [...PNG_BYTES, ...new Array<number>(300_000).fill(0)]];
const OVERSIZE_JSON: WireBody = { kind: 'a JSON body over 1 MB', contentType: 'application/json', text: JSON.stringify({ name: 'x'.repeat(1_100_000) }) };

function bodyArb(op: Operation): fc.Arbitrary<WireBody | undefined> {
  const value = bodyValueArb(op);
  const json = fc.tuple(value, fc.constantFrom(...JSON_TYPES)).map(([v, t]): WireBody => ({ kind: `JSON (${t})`, contentType: t, text: JSON.stringify(v) ?? 'null' }));
  const malformedJson = fc
    .oneof(fc.constantFrom(...MALFORMED_JSON), value.chain((v) => { const s = JSON.stringify(v) ?? 'null'; return fc.nat(s.length).map((n) => s.slice(0, n) || '{'); }))
    .map((text): WireBody => ({ kind: 'malformed JSON', contentType: 'application/json', text }));
  const form = value.map((v): WireBody => ({ kind: 'form fields', contentType: 'application/x-www-form-urlencoded', text: encodePairs(formPairs(v)) }));
  const rawForm = fc
    .constantFrom(...RAW_FORMS)
    .map((text): WireBody => ({ kind: 'malformed form fields', contentType: 'application/x-www-form-urlencoded', text }));
  const multipart = fc
    .tuple(
      value,
      fc.boolean(),
      fc.constantFrom('avatar', op.upload ?? 'file', 'x'),
      fc.constantFrom('a.png', '../../x.png', 'ü😀.png', '', 'a\u0000.png'),
      fc.constantFrom(...UPLOADS),
    )
    .map(([v, withFile, field, name, content]): WireBody => {
      const pairs = formPairs(v).filter(([k]) => !k.includes('"') && !/[\r\n]/.test(k)).map(([k, s]) => [k, s.replace(/\r?\n--/g, '')] as [string, string]);
      const contentType = 'multipart/form-data; boundary=fuzzBoundary';
      if (!withFile) return { kind: 'multipart', contentType, text: multipartText('fuzzBoundary', pairs) };
      return { kind: `multipart with a ${content.length}-byte file`, contentType, bytes: multipartBytes('fuzzBoundary', pairs, { field, name, content, type: 'image/png' }) };
    });
  const brokenMultipart = fc.constantFrom(...MALFORMED_MULTIPART);
  const oddType = fc.tuple(value, fc.constantFrom(...ODD_TYPES)).map(([v, t]): WireBody => ({ kind: `a ${t} body`, contentType: t, text: JSON.stringify(v) ?? '' }));
  const untyped = value.map((v): WireBody => ({ kind: 'a body without Content-Type', bytes: [...Buffer.from(JSON.stringify(v) ?? '')] }));
  const invalidUtf8 = fc.constantFrom([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xff, 0x22, 0x7d], [0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]).map((bytes): WireBody => ({ kind: 'JSON that is not UTF-8', contentType: 'application/json', bytes }));
  // Nested past what a recursive parser or validator survives, written as text (JSON.stringify would not get there).
  const deepJson = fc
    .tuple(fc.constantFrom(10_000, 100_000), fc.constantFrom('{"a":', '['))
    .map(([n, open]): WireBody => ({ kind: `JSON nested ${n} deep`, contentType: 'application/json', text: `${open.repeat(n)}1${(open === '[' ? ']' : '}').repeat(n)}` }));
  const oversizeJson = fc.constant<WireBody>(OVERSIZE_JSON);
  return fc.oneof(
    { arbitrary: json, weight: 10 },
    { arbitrary: form, weight: 3 },
    { arbitrary: malformedJson, weight: 2 },
    { arbitrary: rawForm, weight: 1 },
    { arbitrary: multipart, weight: op.upload ? 3 : 1 },
    { arbitrary: brokenMultipart, weight: op.upload ? 3 : 2 },
    { arbitrary: oddType, weight: 2 },
    { arbitrary: untyped, weight: 1 },
    { arbitrary: invalidUtf8, weight: 1 },
    { arbitrary: oversizeJson, weight: 1 },
    { arbitrary: deepJson, weight: 1 },
    { arbitrary: fc.constant(undefined), weight: 2 },
  );
}

// ─── path, query, credentials ──────────────────────────────────────────────────────────

/** A path parameter: the fixture's real ID (or full path), or raw text put into the URL as is. */
export type Segment = { fixture: 'id' | 'path' } | { raw: string };

const RAW_SEGMENTS = [
  '0',
  '-1',
  '999999999',
  '2147483648',
  '9007199254740993',
  '99999999999999999999999999',
  '1.5',
  '1e3',
  '0x10',
  '+1',
  '%2B1',
  '%201',
  'abc',
  'self',
  'null',
  '%ZZ',
  '%',
  '%E0%A4%A',
  '%C0%AF',
  '%FF%FE',
  '..',
  '%2e%2e',
  '%2F',
  'a%2Fb%2Fc',
  '%00',
  'a%00b',
  '%0D%0AX-Injected:%201',
  '%25',
  '%F0%9F%98%80',
  '%E2%80%AE',
  '%EF%BB%BF1',
  '%ED%A0%80',
  'a'.repeat(2000),
  '%5B%5D',
  '%7B%7D',
  "'%20OR%201=1",
  '*',
];

const segmentArb: fc.Arbitrary<Segment> = fc.oneof(
  { arbitrary: fc.constant<Segment>({ fixture: 'id' }), weight: 6 },
  { arbitrary: fc.constant<Segment>({ fixture: 'path' }), weight: 1 },
  { arbitrary: fc.constantFrom(...RAW_SEGMENTS).map((raw): Segment => ({ raw })), weight: 4 },
  { arbitrary: fc.integer().map((n): Segment => ({ raw: String(n) })), weight: 1 },
  { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }).map((s): Segment => ({ raw: encode(s) })), weight: 1 },
);

function queryValueText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

const RAW_QUERIES = [
  '%ZZ=1',
  '%=%',
  'page=1&page=2',
  'per_page=-1',
  'per_page=0',
  'per_page=1e308',
  'page=99999999999999999999',
  'page=-5',
  `${'a['.repeat(30)}=1`,
  'sort=&order_by=',
  '&&&=',
  `search=${'x'.repeat(5000)}`,
  'search=%00',
  'search=%ED%A0%80',
  'search=%25%5F%2A',
  'search[]=a&search[]=b',
  'search[a][b]=1',
  'private_token=junk',
  'private%5Ftoken=junk',
  'access_token=',
  'id_after=-1&id_before=99999999999',
  'cursor=%7B%22id%22%3A%22x%22%7D',
  'cursor=eyJpZCI6Ii0xIn0',
  'pagination=keyset&order_by=id&sort=asc&cursor=x',
  `${Array.from({ length: 300 }, (_, i) => `q${i}=1`).join('&')}`,
];

const encodeQuery = (pairs: [string, unknown][]) =>
  pairs
    .flatMap(([name, v]) => (v !== null && typeof v === 'object' ? formPairs(v, name) : [[name, queryValueText(v)] as [string, string]]))
    .map(([k, v]) => `${encode(k)}=${encode(v).slice(0, 6000)}`)
    .join('&');

/** Declared query parameters with conforming values, and `hostile` of them given a hostile value instead. */
function declaredQueryArb(op: Operation, hostile: 'one' | 'any'): fc.Arbitrary<[string, unknown][]> {
  if (!op.query.length) return fc.constant([]);
  return fc.subarray(op.query).chain((params) =>
    fc.tuple(
      fc.tuple(...params.map((p) => fc.tuple(fc.constant(p.name), hostile === 'any' ? fc.oneof({ arbitrary: conforming(p.schema), weight: 3 }, { arbitrary: wrongValue(p.schema), weight: 2 }) : conforming(p.schema)))),
      hostile === 'one' ? fc.option(fc.constantFrom(...op.query).chain((p) => fc.tuple(fc.constant(p.name), wrongValue(p.schema)))) : fc.constant(null),
    ).map(([pairs, bad]) => (bad ? [...pairs.filter(([n]) => n !== bad[0]), bad] : pairs) as [string, unknown][]),
  );
}

function queryArb(op: Operation): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: declaredQueryArb(op, 'any').map(encodeQuery), weight: 5 },
    { arbitrary: fc.constantFrom(...RAW_QUERIES), weight: 2 },
    { arbitrary: fc.constant(''), weight: 2 },
  );
}

/**
 * Who sends the case: the administrator mostly, sometimes nobody, sometimes a credential that
 * means nothing, sometimes a caller refused the world's private records (a Guest of its group, a
 * former member: see fuzz-leaks.ts).
 */
export type Caller = { as: 'admin' | 'admin-bearer' | 'anonymous' | 'guest' | 'former' } | { as: 'junk'; header: string; value: string };

const JUNK_CREDENTIALS: [string, string][] = [
  ['PRIVATE-TOKEN', 'x'],
  ['PRIVATE-TOKEN', 'glpat-00000000000000000000'],
  ['PRIVATE-TOKEN', 'a'.repeat(3000)],
  ['PRIVATE-TOKEN', '\u00ff\u00fe'],
  ['PRIVATE-TOKEN', "' OR 1=1 --"],
  ['Authorization', 'Bearer'],
  ['Authorization', 'Bearer    '],
  ['Authorization', 'Basic cm9vdDpyb290'],
  ['Authorization', 'Bearer x.y.z'],
  ['Cookie', 'gatehouse_session=junk'],
  ['Cookie', 'gatehouse_session=%00'],
  ['Cookie', 'gatehouse_session='],
];

const callerArb: fc.Arbitrary<Caller> = fc.oneof(
  { arbitrary: fc.constant<Caller>({ as: 'admin' }), weight: 14 },
  { arbitrary: fc.constant<Caller>({ as: 'admin-bearer' }), weight: 2 },
  { arbitrary: fc.constant<Caller>({ as: 'anonymous' }), weight: 3 },
  { arbitrary: fc.constantFrom(...JUNK_CREDENTIALS).map(([header, value]): Caller => ({ as: 'junk', header, value })), weight: 2 },
  { arbitrary: fc.constantFrom<Caller>({ as: 'guest' }, { as: 'former' }), weight: 2 },
);

const ACCEPTS = [undefined, undefined, undefined, 'text/html', 'application/xml', '*/*', 'application/json;q=0', 'image/png'];

/** One generated request: data only, fixtures resolved when it is sent. */
export interface FuzzCase {
  /** The declared operation this case was made for (method and path of the document). */
  op: { method: string; path: string };
  method: string;
  params: Record<string, Segment>;
  query: string;
  caller: Caller;
  accept?: string;
  body?: WireBody;
}

const OTHER_METHODS = ['get', 'post', 'put', 'patch', 'delete', 'options'];

/**
 * Half the cases of an operation that takes input go deep: the administrator, real fixtures,
 * well-formed JSON and a query that conform but for (at most) one hostile value, so they pass
 * authentication, loading and parsing and reach the rules and the database. The other half
 * are wild: anything in any part of the request.
 */
export function caseArb(op: Operation): fc.Arbitrary<FuzzCase> {
  const takesInput = (op.body && op.method !== 'get') || op.query.length > 0;
  return fc.oneof(
    { arbitrary: deepCaseArb(op), weight: takesInput ? 2 : 0 },
    { arbitrary: wildCaseArb(op), weight: 2 },
    { arbitrary: refusedReadArb(op), weight: op.method === 'get' ? 1 : 0 },
  );
}

/**
 * A read as a caller refused the world's private records, aimed as a deep case is (real
 * fixtures, a query that conforms): whatever it answers must show them none (fuzz-leaks.ts).
 */
function refusedReadArb(op: Operation): fc.Arbitrary<FuzzCase> {
  return fc.record({ query: declaredQueryArb(op, 'one').map(encodeQuery), caller: fc.constantFrom<Caller>({ as: 'guest' }, { as: 'former' }, { as: 'anonymous' }) }).map(({ query, caller }) => ({
    op: { method: op.method, path: op.path },
    method: op.method,
    params: Object.fromEntries(op.pathParams.map((p) => [p, { fixture: 'id' } as Segment])),
    query,
    caller,
  }));
}

function deepCaseArb(op: Operation): fc.Arbitrary<FuzzCase> {
  const body = op.body && op.method !== 'get' ? bodyValueArb(op).map((v): WireBody => ({ kind: 'JSON', contentType: 'application/json', text: JSON.stringify(v) ?? 'null' })) : fc.constant(undefined);
  // Now and then one path parameter at an edge, its parents real: how a child ID is read.
  const oddParam = op.pathParams.length ? fc.oneof({ arbitrary: fc.constant(null), weight: 3 }, { arbitrary: fc.tuple(fc.constantFrom(...op.pathParams), fc.constantFrom(...RAW_SEGMENTS)), weight: 1 }) : fc.constant(null);
  return fc.record({ query: declaredQueryArb(op, 'one').map(encodeQuery), body, oddParam }).map(({ query, body: b, oddParam: odd }) => ({
    op: { method: op.method, path: op.path },
    method: op.method,
    params: Object.fromEntries(op.pathParams.map((p) => [p, (odd?.[0] === p ? { raw: odd[1] } : { fixture: 'id' }) as Segment])),
    query,
    caller: { as: 'admin' },
    body: b,
  }));
}

function wildCaseArb(op: Operation): fc.Arbitrary<FuzzCase> {
  const params = op.pathParams.length ? fc.tuple(...op.pathParams.map(() => segmentArb)).map((segs) => Object.fromEntries(op.pathParams.map((p, i) => [p, segs[i]]))) : fc.constant({});
  const method = fc.oneof({ arbitrary: fc.constant(op.method), weight: 12 }, { arbitrary: fc.constantFrom(...OTHER_METHODS), weight: 1 });
  return fc
    .record({ method, params, query: queryArb(op), caller: callerArb, accept: fc.constantFrom(...ACCEPTS), body: bodyArb(op) })
    .map(({ method: m, params: p, query, caller, accept, body }) => ({
      op: { method: op.method, path: op.path },
      method: m,
      params: p,
      query,
      caller,
      accept,
      // fetch cannot send a body with GET; OPTIONS and DELETE may carry one.
      body: m === 'get' ? undefined : body,
    }));
}
