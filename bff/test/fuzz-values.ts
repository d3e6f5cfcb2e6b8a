import fc from 'fast-check';

/** Values for the fuzzer: conforming to a JSON Schema, or hostile to whatever reads them. */

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  additionalProperties?: boolean | JsonSchema;
}

/** Values that conform (roughly) to a JSON Schema: the base a mutation then breaks. */
export function conforming(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches?.length) return fc.oneof(...branches.map((b) => conforming(b, depth)));
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length > 1) return fc.oneof(...types.map((type) => conforming({ ...schema, type }, depth)));
  switch (types[0]) {
    case 'string':
      return conformingString(schema);
    case 'integer':
      return fc.integer({ min: Math.max(schema.minimum ?? -5, -5), max: Math.min(schema.maximum ?? 1000, 1000) });
    case 'number':
      return fc.double({ min: Math.max(schema.minimum ?? -5, -5), max: Math.min(schema.maximum ?? 1000, 1000), noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      if (depth > 4) return fc.constant([]);
      return fc.array(conforming(schema.items ?? {}, depth + 1), { minLength: schema.minItems ?? 0, maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, 3)) });
    case 'object': {
      if (depth > 4) return fc.constant({});
      const props = schema.properties ?? {};
      const arbs = Object.fromEntries(Object.entries(props).map(([k, s]) => [k, conforming(s, depth + 1)]));
      const required = (schema.required ?? []).filter((k) => k in props);
      return fc.record(arbs, { requiredKeys: required }) as fc.Arbitrary<unknown>;
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function conformingString(schema: JsonSchema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.max(min, Math.min(schema.maxLength ?? 24, 24));
  if (schema.pattern) {
    try {
      const re = new RegExp(schema.pattern);
      return fc.stringMatching(re).filter((s) => s.length <= (schema.maxLength ?? Infinity) && s.length >= min);
    } catch {
      // A pattern JavaScript cannot read: any string will do as a base.
    }
  }
  if (schema.format === 'email') return fc.emailAddress();
  if (schema.format === 'date-time') return fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }).map((d) => d.toISOString());
  if (schema.format === 'uri') return fc.webUrl();
  return fc.string({ minLength: min, maxLength: max });
}

/** Strings people and attackers type: NUL, control characters, odd Unicode, injections. */
export const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u001f\u007f',
  '\u202eevil',
  '\ufeffbom',
  '\u200b',
  'e\u0301\u0301\u0301',
  '😀',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  '\ud800',
  'x\udfffy',
  '\u2028\u2029',
  '\uffff\ufffe',
  'İıßǅﷺ',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  '{{7*7}}${7*7}',
  '../../etc/passwd',
  '%00%2e%2e%2f',
  '%s%n%x',
  '\\',
  '\r\n\r\nX-Injected: 1',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '0x1F',
  ' 42 ',
  '99999999999999999999999',
  '-9223372036854775809',
  '2147483648',
  '2024-02-30',
  '0000-00-00',
  '9999-99-99T99:99:99Z',
  'true',
  'null',
  'undefined',
  '[object Object]',
  '__proto__',
];

export const HUGE_NUMBERS = [0, -1, -0.5, 1.5, 2 ** 31, 2 ** 31 - 1, -(2 ** 31) - 1, 2 ** 53, -(2 ** 53), 2 ** 64, 1e308, -1e308, 5e-324];

const oversize = fc
  .tuple(fc.constantFrom(256, 1001, 2049, 4097, 16385, 70_000), fc.constantFrom('a', 'é', '😀', '\u0000', ' ', '%'))
  .map(([n, c]) => c.repeat(n));

function nested(depth: number, kind: 'object' | 'array'): unknown {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = kind === 'object' ? { a: v } : [v];
  return v;
}

const scalarHostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...HUGE_NUMBERS),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(...ODD_STRINGS),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.tuple(fc.string({ maxLength: 8 }), fc.constantFrom(...ODD_STRINGS)).map(([a, b]) => a + b),
);

/** Anything a field should not hold: wrong types, oversize, odd text, arrays, deep nesting. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: scalarHostile, weight: 6 },
  { arbitrary: oversize, weight: 2 },
  { arbitrary: fc.array(scalarHostile, { maxLength: 4 }), weight: 2 },
  { arbitrary: fc.constantFrom<unknown>([], [[]], [{}], {}, { '': '' }, JSON.parse('{"__proto__":{"admin":true}}'), { constructor: { prototype: { admin: true } } }), weight: 1 },
  { arbitrary: fc.dictionary(fc.string({ maxLength: 6 }), scalarHostile, { maxKeys: 4 }), weight: 1 },
  { arbitrary: fc.tuple(fc.constantFrom(20, 200, 2000), fc.constantFrom<'object' | 'array'>('object', 'array')).map(([d, k]) => nested(d, k)), weight: 1 },
);

/** Flattens an object into form fields the way extended query-string parsers read them back. */
export function formPairs(value: unknown, prefix = '', depth = 0): [string, string][] {
  if (value === null || value === undefined) return [[prefix || 'value', '']];
  // Brackets past any parser's depth limit say nothing more; stop before the names get huge.
  if (depth > 40 && typeof value === 'object') return [[prefix, 'deep']];
  if (Array.isArray(value)) {
    if (!value.length) return [[`${prefix}[]`, '']];
    return value.flatMap((v) => (v !== null && typeof v === 'object' ? formPairs(v, `${prefix}[]`, depth + 1) : [[`${prefix}[]`, String(v)] as [string, string]]));
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (!entries.length) return prefix ? [[prefix, '']] : [];
    return entries.flatMap(([k, v]) => formPairs(v, prefix ? `${prefix}[${k}]` : k, depth + 1));
  }
  return [[prefix || 'value', String(value)]];
}

/** Percent-encoding of any string: a lone surrogate (which UTF-8 cannot carry) becomes U+FFFD, as a browser sends it. */
export const encode = (s: string) => encodeURIComponent(s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));

/** Integers around the limits storage engines and JavaScript have (int4, int8, 2^53). */
export const INT_EDGES = [0, -1, 1, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), -(2 ** 31) - 1, 2 ** 32, 2 ** 53 - 1, 2 ** 53 + 2, -(2 ** 53), 2 ** 63, 1.5, -0.5, 1e21];
/** Strings that look like numbers to one parser and not to another. */
export const NUMERIC_STRINGS = ['0', '-1', '2147483648', '-2147483649', '4294967296', '9007199254740993', '9223372036854775808', '1e3', '1.5', '0x10', '0b1', ' 1', '1 ', '+1', '１２', '٣', '1_000'];
const DATE_EDGES = ['2024-02-30', '2023-02-29', '2024-13-01', '2024-00-10', '0000-01-01', '9999-12-31', '1970-01-01', '2024-1-1', '20240101', '2024-01-01T25:00:00Z', '2024-01-01T00:00:00+99:00', '2024-W01', '+275760-09-13', '-000001-01-01'];

function stringEdges(schema: JsonSchema): string[] {
  const max = Math.min(schema.maxLength ?? 255, 100_000);
  const edges = ['', ' ', 'a\u0000b', '\u202e\u200b', '\ud800', '😀'.repeat(Math.max(1, Math.ceil(max / 2))), 'é'.repeat(max), 'x'.repeat(max), 'x'.repeat(max + 1), ...NUMERIC_STRINGS];
  if (schema.minLength) edges.push('x'.repeat(schema.minLength - 1));
  if (schema.pattern?.includes('\\d{4}') || schema.format?.startsWith('date')) edges.push(...DATE_EDGES);
  return edges;
}

/**
 * Values at the edges of what a schema allows: just past its limits, around integer widths,
 * impossible dates, lone surrogates, numbers written as text. These are what slip through
 * validation and trip a service or the database.
 */
export function edgeValue(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches?.length) return fc.oneof(...branches.map((b) => edgeValue(b, depth)));
  if (schema.enum?.length) {
    const first = String(schema.enum[0]);
    return fc.constantFrom(first.toUpperCase(), ` ${first}`, `${first}\u0000`, `${first}x`, '', ...NUMERIC_STRINGS.slice(0, 3));
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const limits = [schema.minimum, schema.maximum].filter((n): n is number => n !== undefined && Math.abs(n) < 1e15);
  switch (type) {
    case 'string':
      return fc.constantFrom(...stringEdges(schema));
    case 'integer':
    case 'number':
      return fc.constantFrom(...INT_EDGES, ...limits.flatMap((n) => [n - 1, n + 1]), ...NUMERIC_STRINGS);
    case 'boolean':
      return fc.constantFrom<unknown>('yes', 'no', 'TRUE', 'on', '2', '', 2, -1, null, 'nil');
    case 'array':
      if (depth > 3) return fc.constant([]);
      return fc.oneof(
        fc.constant([]),
        edgeValue(schema.items ?? {}, depth + 1).map((v) => [v]),
        edgeValue(schema.items ?? {}, depth + 1).map((v) => new Array<unknown>(Math.max(schema.maxItems ?? 0, 300) + 1).fill(v)),
        edgeValue(schema.items ?? {}, depth + 1),
      );
    case 'object':
      return fc.constantFrom<unknown>({}, [], 'object', { '': null });
    default:
      return hostileValue;
  }
}

/** A value to put where the schema describes another: mostly at its edges, sometimes anything. */
export const wrongValue = (schema: JsonSchema) => fc.oneof({ arbitrary: edgeValue(schema), weight: 2 }, { arbitrary: hostileValue, weight: 1 });
