/**
 * fast-check arbitraries from the JSON Schemas of the OpenAPI document: values a client reading only the document
 * would send. The structure (types, enums, lengths, ranges, patterns, formats, required keys) is generated; every value
 * is then kept only when the document's own schema accepts it (ajv), so rules generated loosely (`anyOf` of required
 * keys, `uniqueItems`, `minProperties`) still hold in every value (docs/api-contract.md).
 */
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

type Schema = Record<string, unknown> & {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  prefixItems?: Schema[];
  additionalProperties?: boolean | Schema;
};

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv2020,
) => Ajv2020;
const ajv = addFormats(new Ajv2020({ strict: false, validateFormats: true }));
// zod names a string's fixed prefix as the format `starts_with` beside the `pattern` that checks it.
ajv.addFormat('starts_with', true);

const INT32 = 2 ** 31 - 1;

/** Ids of records that exist, by property name: a reference in a body names one of them. */
export type Known = Record<string, string[]>;
const num = (v: unknown) => (typeof v === 'number' ? v : undefined);

function patternArbitrary(
  pattern: string,
  fallback: fc.Arbitrary<string>,
  minLength: number,
  maxLength: number,
): fc.Arbitrary<string> {
  const regex = new RegExp(pattern);
  // A run of one character class (`^[A-Za-z0-9_-]+$`): strings of that class in the schema's lengths.
  const run = /^\^(\[[^\]]+\])[+*]\$$/.exec(pattern);
  if (run) return fc.string({ unit: fc.stringMatching(new RegExp(`^${run[1]}$`)), minLength, maxLength });
  try {
    return fc.stringMatching(regex);
  } catch {
    // A pattern fast-check cannot read (look-arounds): values of the format, kept when they match.
    return fallback.filter((v) => regex.test(v));
  }
}

function stringArbitrary(schema: Schema): fc.Arbitrary<string> {
  const minLength = num(schema.minLength) ?? 0;
  const maxLength = Math.min(num(schema.maxLength) ?? 64, minLength + 64);
  const byFormat: Record<string, fc.Arbitrary<string>> = {
    email: fc.emailAddress(),
    date: fc
      .date({ min: new Date('2000-01-01'), max: new Date('2035-12-31'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10)),
    'date-time': fc
      .date({ min: new Date('2000-01-01'), max: new Date('2035-12-31'), noInvalidDate: true })
      .map((d) => d.toISOString()),
    uuid: fc.uuid(),
    uri: fc.webUrl(),
    url: fc.webUrl(),
    ipv4: fc.ipV4(),
  };
  const format = typeof schema.format === 'string' ? byFormat[schema.format] : undefined;
  const plain = format ?? fc.string({ minLength, maxLength });
  const patterns = [
    ...(typeof schema.pattern === 'string' ? [schema.pattern] : []),
    ...(schema.allOf ?? []).map((s) => s.pattern).filter((p): p is string => typeof p === 'string'),
  ];
  if (patterns.length === 0) return plain;
  const [first, ...rest] = patterns;
  const regexes = rest.map((p) => new RegExp(p));
  return patternArbitrary(first!, plain, minLength, maxLength).filter(
    (v) => v.length >= minLength && v.length <= (num(schema.maxLength) ?? Infinity) && regexes.every((r) => r.test(v)),
  );
}

function numberArbitrary(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const min = num(schema.minimum) ?? (num(schema.exclusiveMinimum) ?? -INT32 - 1) + (integer ? 1 : 0);
  const max = num(schema.maximum) ?? (num(schema.exclusiveMaximum) ?? INT32 + 1) - (integer ? 1 : 0);
  const step = num(schema.multipleOf);
  if (step) {
    const low = Math.ceil(Math.max(min, -INT32) / step);
    const high = Math.floor(Math.min(max, INT32) / step);
    return fc.integer({ min: low, max: high }).map((k) => k * step);
  }
  if (integer) return fc.integer({ min: Math.max(min, -INT32), max: Math.min(max, INT32) });
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

function structural(schema: Schema, known: Known = {}): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices && !schema.type && !schema.properties) return fc.oneof(...choices.map((c) => structural(c, known)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = num(schema.minItems) ?? 0;
      const maxLength = Math.min(num(schema.maxItems) ?? 5, minLength + 5);
      if (schema.prefixItems) return fc.tuple(...schema.prefixItems.map((s) => structural(s, known)));
      return fc.array(schema.items ? structural(schema.items, known) : fc.jsonValue(), { minLength, maxLength });
    }
    case 'object': {
      const properties = schema.properties ?? {};
      const required = schema.required ?? [];
      const open = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
      const record = fc.record(
        Object.fromEntries(
          Object.entries(properties).map(([name, s]) => {
            const ids = known[name] ?? known[name.replace(/Ids$/, 'Id')];
            if (!ids?.length) return [name, structural(s, known)];
            const one = fc.constantFrom(...ids);
            return [name, s.type === 'array' ? fc.uniqueArray(one, { minLength: 1, maxLength: ids.length }) : one];
          }),
        ),
        { requiredKeys: required.filter((k) => k in properties) },
      );
      if (!open) return record;
      return fc
        .tuple(
          record,
          fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), structural(open, known), { maxKeys: 3 }),
        )
        .map(([known, extra]) => ({ ...extra, ...known }));
    }
    default:
      return fc.jsonValue();
  }
}

/** Values the schema accepts: generated from its structure, each one checked against the whole schema. */
export function arbitraryOf(schema: Record<string, unknown>, known: Known = {}): fc.Arbitrary<unknown> {
  const validate = ajv.compile(schema);
  return structural(schema as Schema, known).filter((v) => validate(v));
}
