// zod building blocks for the protobuf JSON mapping (reference §1.3-1.4).
// Request schemas accept what the real gateway accepts (lowerCamelCase or
// snake_case keys, enum names or numbers, int64 as string or number, null =
// unset, unknown keys ignored) and normalize it; response schemas describe
// exactly what we emit. Both feed the OpenAPI document.
import { z } from 'zod';
import { parseDuration, parseTimestamp, type Micros } from './time';

export const snakeToCamel = (s: string) => s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
export const camelToSnake = (s: string) => s.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase());

type Shape = Record<string, z.ZodType>;

/** message() wraps its object in a preprocess step; the OpenAPI generator documents the object instead. */
export const documentedObject = new WeakMap<z.ZodType, z.ZodType>();

/**
 * A protobuf message in a request: snake_case keys are renamed to the
 * lowerCamelCase field they name, `null` means unset, unknown keys are dropped.
 */
export function message<S extends Shape>(shape: S) {
  const obj = z.object(shape);
  const schema = z.preprocess((input) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
      if (value === null) continue;
      const camel = key in shape ? key : snakeToCamel(key);
      if (camel in shape && !(camel in out)) out[camel] = value;
    }
    return out;
  }, obj);
  documentedObject.set(schema, obj);
  return schema;
}

/** The OpenAPI key that marks what Outpost adds to the platform's public API (an operation, a field, a value). */
export const OUTPOST_EXTENSION = 'x-outpost-extension';

/**
 * Marks a field that the platform's message lacks as an Outpost extension in the OpenAPI document; `what` says what
 * is extended when it is not the whole field (an order_by value). tests/contract/openapiExtensions.test.ts checks
 * every mark against the vendored protos.
 */
export const outpostExtension = <T extends z.ZodType>(schema: T, what: string | true = true): T =>
  schema.meta({ [OUTPOST_EXTENSION]: what }) as T;

/** The mark of a field the seed spec has and the public protos lack (not on the gRPC wire; README "Use your Sift scripts offline"). */
export const SEED_SPEC_FIELD = 'a seed spec field the public protos lack';

/** A protobuf message in a response: every field always present (EmitUnpopulated). */
export const response = <S extends Shape>(shape: S) => z.object(shape);

/** Timestamp in a request -> epoch microseconds. */
export const timestampIn = z
  .string({ error: 'must be an RFC 3339 timestamp string' })
  .transform((s, ctx): Micros => {
    const micros = parseTimestamp(s);
    if (micros === null) {
      ctx.addIssue({ code: 'custom', message: `invalid RFC 3339 timestamp '${s}'` });
      return z.NEVER;
    }
    return micros;
  })
  .meta({ type: 'string', format: 'date-time' } as never);

export const timestampOut = z.string().meta({ format: 'date-time' });
export const nullableTimestampOut = timestampOut.nullable();

export const durationIn = z.string().transform((s, ctx): Micros => {
  const v = parseDuration(s);
  if (v === null) {
    ctx.addIssue({ code: 'custom', message: `invalid duration '${s}' (expected e.g. "3.5s")` });
    return z.NEVER;
  }
  return v;
});

/** int64/uint64 in JSON: a decimal string on output, string or number on input. */
export const int64In = z.union([z.number().int(), z.string().regex(/^-?\d+$/, 'must be an integer')]).transform((v) => Number(v));
export const int64Out = z.string().regex(/^-?\d+$/);

/** uint32 in a request (JSON number or numeric string, as protojson accepts; query values arrive as strings). */
export const uint32In = z
  .union([z.number(), z.string().regex(/^-?\d+$/, 'must be an integer')])
  .transform((v) => Number(v))
  .pipe(z.number().int('must be an integer').min(0, 'must not be negative').max(4294967295, 'is out of range for uint32'));

export const int32In = z
  .union([z.number(), z.string().regex(/^-?\d+$/, 'must be an integer')])
  .transform((v) => Number(v))
  .pipe(z.number().int('must be an integer').min(-2147483648).max(2147483647));

/** double: number, or a numeric / non-finite string. */
export const doubleIn = z.union([z.number(), z.string()]).transform((v, ctx) => {
  if (typeof v === 'number') return v;
  if (v === 'NaN') return NaN;
  if (v === 'Infinity') return Infinity;
  if (v === '-Infinity') return -Infinity;
  const n = Number(v);
  if (v.trim() === '' || Number.isNaN(n)) {
    ctx.addIssue({ code: 'custom', message: `'${v}' is not a number` });
    return z.NEVER;
  }
  return n;
});

/** bool: JSON true/false; query strings follow Go ParseBool. */
export const boolIn = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 't', 'f', 'T', 'F', 'TRUE', 'FALSE', 'True', 'False'])])
  .transform((v) => v === true || (typeof v === 'string' && ['true', '1', 't', 'T', 'TRUE', 'True'].includes(v)));

/** A repeated string field; a single query value arrives as a plain string. */
export const stringListIn = z.union([z.array(z.string()), z.string()]).transform((v) => (Array.isArray(v) ? v : [v]));

export interface EnumDef<N extends string> {
  readonly names: readonly N[];
  readonly numbers: Readonly<Record<N, number>>;
  readonly in: z.ZodType<N, unknown>;
  readonly out: z.ZodType<N>;
}

/**
 * A protobuf enum. `values` maps full value names to numbers (gaps allowed:
 * TestMeasurementType has no 2). Input: name or number; output: name.
 */
export function protoEnum<const N extends string>(typeName: string, values: Record<N, number>): EnumDef<N> {
  const names = Object.keys(values) as N[];
  const byNumber = new Map<number, N>(names.map((n) => [values[n], n]));
  const input = z.union([z.string(), z.number()]).transform((v, ctx): N => {
    if (typeof v === 'number') {
      const name = byNumber.get(v);
      if (name) return name;
    } else if (names.includes(v as N)) {
      return v as N;
    } else if (/^\d+$/.test(v) && byNumber.has(Number(v))) {
      return byNumber.get(Number(v))!;
    }
    ctx.addIssue({ code: 'custom', message: `invalid value ${JSON.stringify(v)} for enum ${typeName}` });
    return z.NEVER;
  });
  return {
    names,
    numbers: values,
    in: input.meta({ type: 'string', enum: names } as never) as unknown as z.ZodType<N, unknown>,
    out: z.enum(names as [N, ...N[]]),
  };
}

/** google.protobuf.FieldMask in JSON: one comma-separated string. Normalized to snake_case paths. */
export const fieldMaskIn = z.string({ error: 'must be a comma-separated string of field paths' }).transform((s) =>
  s
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0)
    .map((p) => p.split('.').map(camelToSnake).join('.')),
);

export const pageSizeIn = uint32In;
