// Random well-typed annotation filters, each rendered twice: `surface` is what
// an API user writes (relation fields used as one element, enum names as
// strings) and `reference` is the same meaning in plain CEL for the in-memory
// evaluator (relations spelled out as exists() over lists, see
// compileFilter.ts for the semantics this encodes).
import fc from 'fast-check';
import { METADATA_KEYS, RUNS, TAGS, textArb, timeMsArb, type MetadataValue, metadataValueArb } from './annotationDataset';

export interface GeneratedFilter {
  readonly surface: string;
  readonly reference: string;
}

const same = (s: string): GeneratedFilter => ({ surface: s, reference: s });

/** A CEL string literal (single-quoted, escaping backslash and quote). */
export function celString(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function celNumber(n: number | bigint): string {
  if (typeof n === 'bigint') return n.toString();
  return Number.isInteger(n) && Math.abs(n) < 1e15 ? `${n}.0` : String(n);
}

const timestampLit = (ms: number) => `timestamp('${new Date(ms).toISOString()}')`;
const DURATIONS = ["'0s'", "'1s'", "'90s'", "'1h'", "'1500ms'", "'-30m'", "'1h0m0.001s'"];
const REGEXES = ['a', '^a', 'b$', 'a|b', '^(a|😀)+$', 'é', 'e\u0301', '', '^$', 'A+', '%', "'"];

const STRING_FIELDS = ['name', 'description', 'annotation_id', 'created_by_user_id'];
const NULLABLE_STRING_FIELDS = ['run_id', 'created_by_rule_condition_version_id'];
const TIME_FIELDS = ['start_time', 'end_time', 'created_date', 'modified_date'];
const RELATIONS = ['tag_name', 'asset_id', 'asset_name', 'assignee'];
const ORDER_OPS = ['<', '<=', '>', '>='];
const ALL_OPS = ['==', '!=', ...ORDER_OPS];
const STATES = ['ANNOTATION_STATE_OPEN', 'ANNOTATION_STATE_FLAGGED', 'ANNOTATION_STATE_RESOLVED'];
const STATE_NUMBER: Record<string, number> = { ANNOTATION_STATE_OPEN: 1, ANNOTATION_STATE_FLAGGED: 2, ANNOTATION_STATE_RESOLVED: 3 };

const op = fc.constantFrom(...ALL_OPS);
const orderOp = fc.constantFrom(...ORDER_OPS);
const strLit = fc.oneof(textArb, fc.constantFrom(...TAGS, ...RUNS, 'ann-001', 'u1', 'alice', 'Rover 😀', 'rover')).map(celString);
const strList = fc.array(strLit, { maxLength: 4 }).map((xs) => `[${xs.join(', ')}]`);

/** A string-valued expression template: relation leaves substitute their element variable. */
type Template = (x: string) => string;

/** Templates that read x as one string (for a relation: "some element"). */
const elementTemplate: fc.Arbitrary<Template> = fc.oneof(
  fc.tuple(op, strLit).map(
    ([o, l]) =>
      (x: string) =>
        `${x} ${o} ${l}`,
  ),
  fc.tuple(fc.constantFrom('startsWith', 'endsWith', 'contains'), strLit).map(
    ([f, l]) =>
      (x: string) =>
        `${x}.${f}(${l})`,
  ),
  fc.constantFrom(...REGEXES).map((re) => (x: string) => `${x}.matches(${celString(re)})`),
  fc.tuple(fc.constantFrom('==', '!=', '<', '>='), fc.constantFrom(...STRING_FIELDS, ...NULLABLE_STRING_FIELDS)).map(
    ([o, f]) =>
      (x: string) =>
        `${x} ${o} ${f}`,
  ),
  fc.tuple(fc.constantFrom('startsWith', 'contains', 'endsWith'), fc.constantFrom('name', 'description')).map(
    ([fn, f]) =>
      (x: string) =>
        `${x}.${fn}(${f})`,
  ),
  strList.map((l) => (x: string) => `${x} in ${l}`),
  fc.tuple(fc.constantFrom(...STRING_FIELDS), strLit).map(
    ([f, l]) =>
      (x: string) =>
        `${x} in [${f}, ${l}]`,
  ),
  fc.tuple(fc.constantFrom('pending', 'is_archived'), strLit).map(
    ([c, l]) =>
      (x: string) =>
        `(${c} ? ${x} : description) == ${l}`,
  ),
  strLit.map((l) => (x: string) => `dyn(${x}) == ${l}`),
  strLit.map((l) => (x: string) => `pending == (${x} == ${l})`),
);

/** size() of x: of a string its length, of a relation (used as a list) its number of elements. */
const sizeTemplate: fc.Arbitrary<Template> = fc.oneof(
  fc.tuple(orderOp, fc.integer({ min: 0, max: 4 }), fc.boolean()).map(
    ([o, n, asDouble]) =>
      (x: string) =>
        `size(${x}) ${o} ${asDouble ? `${n}.5` : n}`,
  ),
  fc.constantFrom((x: string) => `${x}.size() == 0`),
);

const stringTemplate: fc.Arbitrary<Template> = fc.oneof({ arbitrary: elementTemplate, weight: 11 }, { arbitrary: sizeTemplate, weight: 2 });

const stringLeaf = fc.tuple(fc.constantFrom(...STRING_FIELDS, ...NULLABLE_STRING_FIELDS), stringTemplate).map(([f, t]) => same(t(f)));

const nullLeaf = fc
  .tuple(fc.constantFrom(...NULLABLE_STRING_FIELDS, 'state', 'archived_date'), fc.constantFrom('==', '!='), fc.boolean())
  .map(([f, o, flip]) => same(flip ? `null ${o} ${f}` : `${f} ${o} null`));

const enumValue = fc
  .constantFrom(...STATES)
  .chain((name) =>
    fc.constantFrom<GeneratedFilter>(
      { surface: name, reference: name },
      { surface: celString(name), reference: name },
      same(String(STATE_NUMBER[name])),
    ),
  );

const enumLeaf = fc.oneof(
  fc
    .tuple(fc.constantFrom('==', '!='), enumValue)
    .map(([o, v]) => ({ surface: `state ${o} ${v.surface}`, reference: `state ${o} ${v.reference}` })),
  fc.array(enumValue, { maxLength: 3 }).map((vs) => ({
    surface: `state in [${vs.map((v) => v.surface).join(', ')}]`,
    reference: `state in [${vs.map((v) => v.reference).join(', ')}]`,
  })),
  fc.tuple(orderOp, fc.integer({ min: 0, max: 4 })).map(([o, n]) => same(`state ${o} ${n}`)),
  fc
    .tuple(fc.constantFrom('==', '!='), fc.constantFrom('ANNOTATION_TYPE_DATA_REVIEW', 'ANNOTATION_TYPE_PHASE'), fc.boolean())
    .map(([o, name, quoted]) => ({
      surface: `annotation_type ${o} ${quoted ? celString(name) : name}`,
      reference: `annotation_type ${o} ${name}`,
    })),
);

const durationLit = fc.constantFrom(...DURATIONS).map((d) => `duration(${d})`);
const timeField = fc.constantFrom(...TIME_FIELDS, 'archived_date');
const timeLeaf = fc.oneof(
  fc.tuple(timeField, op, timeMsArb).map(([f, o, ms]) => same(`${f} ${o} ${timestampLit(ms)}`)),
  fc.tuple(timeField, op, timeField).map(([a, o, b]) => same(`${a} ${o} ${b}`)),
  fc
    .tuple(timeField, fc.constantFrom('+', '-'), durationLit, op, timeMsArb)
    .map(([f, s, d, o, ms]) => same(`${f} ${s} ${d} ${o} ${timestampLit(ms)}`)),
  fc.tuple(timeField, timeField, op, durationLit).map(([a, b, o, d]) => same(`${a} - ${b} ${o} ${d}`)),
  fc.tuple(timeField, op, timeField, durationLit).map(([a, o, b, d]) => same(`${a} ${o} ${b} + ${d}`)),
);

const boolLeaf = fc.oneof(
  fc
    .constantFrom(
      'pending',
      'is_archived',
      '!pending',
      'pending == true',
      'is_archived != false',
      'is_archived == false',
      'pending != is_archived',
    )
    .map(same),
);

const relationLeaf = fc
  .tuple(fc.constantFrom(...RELATIONS), elementTemplate)
  .map(([rel, t]) => ({ surface: t(rel), reference: `${rel}.exists(e, ${t('e')})` }));

/** Relations used as lists: `in`, size(), and comprehensions (the same text in both renderings). */
const relationListLeaf: fc.Arbitrary<GeneratedFilter> = fc.oneof(
  fc.tuple(fc.constantFrom(...RELATIONS), sizeTemplate).map(([rel, t]) => same(t(rel))),
  fc.tuple(strLit, fc.constantFrom(...RELATIONS)).map(([l, rel]) => same(`${l} in ${rel}`)),
  fc
    .tuple(fc.constantFrom(...STRING_FIELDS, ...NULLABLE_STRING_FIELDS), fc.constantFrom(...RELATIONS))
    .map(([f, rel]) => same(`${f} in ${rel}`)),
  fc
    .tuple(fc.constantFrom(...METADATA_KEYS, 'missing'), fc.constantFrom(...RELATIONS))
    .map(([k, rel]) => same(`metadata[${celString(k)}] in ${rel}`)),
  fc
    .tuple(fc.constantFrom('exists', 'all', 'exists_one'), fc.constantFrom(...RELATIONS), stringTemplate)
    .map(([m, rel, t]) => same(`${rel}.${m}(v, ${t('v')})`)),
  // an element leaf of another relation (its own "some element") inside the comprehension
  fc
    .tuple(
      fc.constantFrom('exists', 'all', 'exists_one'),
      fc.constantFrom(...RELATIONS),
      elementTemplate,
      fc.constantFrom(...RELATIONS),
      strLit,
    )
    .map(([m, rel, t, other, l]) => ({
      surface: `${rel}.${m}(v, ${t('v')} || ${other} == ${l})`,
      reference: `${rel}.${m}(v, ${t('v')} || ${other}.exists(e, e == ${l}))`,
    })),
);

const metadataLit = metadataValueArb.map((v: MetadataValue) =>
  typeof v === 'string' ? celString(v) : typeof v === 'number' ? celNumber(v) : String(v),
);
const metadataKey = fc.constantFrom(...METADATA_KEYS, 'missing');
const metadataIndex = metadataKey.chain((k) =>
  /^\w+$/.test(k) ? fc.constantFrom(`metadata[${celString(k)}]`, `metadata.${k}`) : fc.constant(`metadata[${celString(k)}]`),
);
const metadataLeaf = fc.oneof(
  fc.tuple(metadataIndex, op, metadataLit).map(([m, o, v]) => same(`${m} ${o} ${v}`)),
  fc.tuple(metadataIndex, fc.constantFrom('==', '!=', '<'), fc.integer({ min: -1, max: 2 })).map(([m, o, n]) => same(`${m} ${o} ${n}`)),
  fc.tuple(metadataIndex, fc.constantFrom('startsWith', 'contains'), strLit).map(([m, f, l]) => same(`${m}.${f}(${l})`)),
  fc.tuple(metadataIndex, strList).map(([m, l]) => same(`${m} in ${l}`)),
  fc.tuple(metadataIndex, fc.constantFrom('&&', '||'), fc.boolean()).map(([m, o, b]) => same(`(${m} ${o} ${b})`)),
  metadataKey.map((k) => same(`${celString(k)} in metadata`)),
  metadataKey.filter((k) => /^\w+$/.test(k)).map((k) => same(`has(metadata.${k})`)),
  fc.tuple(metadataIndex, orderOp, fc.integer({ min: 0, max: 3 })).map(([m, o, n]) => same(`size(${m}) ${o} ${n}`)),
  fc.tuple(metadataIndex, fc.constantFrom('name', 'description')).map(([m, f]) => same(`${m} == ${f}`)),
);

/** Comprehensions over list literals, unrolled by the compiler. */
const comprehensionLeaf = fc
  .tuple(
    fc.constantFrom('exists', 'all', 'exists_one'),
    fc.array(strLit, { maxLength: 3 }),
    fc.constantFrom<[string, string]>(
      ['name.startsWith(x)', 'name.startsWith(x)'],
      ['x == description', 'x == description'],
      ['run_id == x', 'run_id == x'],
      ['tag_name == x', 'tag_name.exists(e, e == x)'],
      ["metadata['env'] == x", "metadata['env'] == x"],
      ['x < name', 'x < name'],
    ),
  )
  .map(([m, list, [s, r]]) => ({ surface: `[${list.join(', ')}].${m}(x, ${s})`, reference: `[${list.join(', ')}].${m}(x, ${r})` }));

const constantLeaf = fc
  .constantFrom('1 < 2', "'a' == 'b'", '1/0 == 1', '[1, 2].exists(y, y > 1)', 'true', 'false', "size('😀') == 1")
  .map(same);

const leaf: fc.Arbitrary<GeneratedFilter> = fc.oneof(
  { arbitrary: stringLeaf, weight: 4 },
  { arbitrary: nullLeaf, weight: 1 },
  { arbitrary: enumLeaf, weight: 2 },
  { arbitrary: timeLeaf, weight: 3 },
  { arbitrary: boolLeaf, weight: 1 },
  { arbitrary: relationLeaf, weight: 3 },
  { arbitrary: relationListLeaf, weight: 2 },
  { arbitrary: metadataLeaf, weight: 3 },
  { arbitrary: comprehensionLeaf, weight: 1 },
  { arbitrary: constantLeaf, weight: 1 },
);

const combine = (a: GeneratedFilter, b: GeneratedFilter, o: string): GeneratedFilter => ({
  surface: `(${a.surface}) ${o} (${b.surface})`,
  reference: `(${a.reference}) ${o} (${b.reference})`,
});

export const filterArb: fc.Arbitrary<GeneratedFilter> = fc.letrec<{ expr: GeneratedFilter }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true, maxDepth: 4 },
    { arbitrary: leaf, weight: 4 },
    { arbitrary: fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => combine(a, b, '&&')), weight: 2 },
    { arbitrary: fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => combine(a, b, '||')), weight: 2 },
    { arbitrary: tie('expr').map((a) => ({ surface: `!(${a.surface})`, reference: `!(${a.reference})` })), weight: 2 },
    {
      arbitrary: fc.tuple(tie('expr'), tie('expr'), tie('expr')).map(([c, a, b]) => ({
        surface: `(${c.surface}) ? (${a.surface}) : (${b.surface})`,
        reference: `(${c.reference}) ? (${a.reference}) : (${b.reference})`,
      })),
      weight: 1,
    },
  ),
})).expr;
