// Every way a filter can be rejected: INVALID_ARGUMENT (code 3, HTTP 400)
// whose message names the problem and the column, with a BadRequest detail on
// `filter`. And the abuse limits, at their edges, on filters that then run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, Code } from '../../src-shared/errors';
import { compileFilter } from '../../src-main/filter/compileFilter';
import { listPage } from '../../src-main/filter/listQuery';
import {
  MAX_AST_NODES,
  MAX_FILTER_LENGTH,
  MAX_LIST_ELEMENTS,
  MAX_NESTING_DEPTH,
  MAX_REGEX_LENGTH,
  MAX_SQL_PARAMS,
} from '../../src-main/filter/limits';
import { annotationListSpec } from '../../src-main/services/annotations/annotationListSpec';
import { annotationLogListSpec } from '../../src-main/services/annotations/annotationLogListSpec';
import { loadDataset, openFilterTestDb, ORGANIZATION_ID, type FilterTestDb } from './support/annotationDataset';

const fields = annotationListSpec.filterFields;

function rejection(filter: string, f = fields): ApiError {
  try {
    compileFilter(f, filter);
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error(`expected ${JSON.stringify(filter)} to be rejected`);
}

function message(filter: string): string {
  return rejection(filter).message;
}

let t: FilterTestDb;
beforeAll(() => {
  t = openFilterTestDb();
  loadDataset(t.db, []);
});
afterAll(() => t.close());

/** Compiles and runs the filter through listPage (so SQLite accepts what the compiler produced). */
function runs(filter: string): boolean {
  listPage(t.db, annotationListSpec, { filter }, { sql: 't.organization_id = ?', params: [ORGANIZATION_ID], fingerprint: [] }, 's');
  return true;
}

describe('the error shape', () => {
  it('is INVALID_ARGUMENT with a BadRequest detail on filter, naming the problem and the column', () => {
    const err = rejection("nmae == 'x'");
    expect(err.code).toBe(Code.INVALID_ARGUMENT);
    expect(err.httpStatus).toBe(400);
    expect(err.message).toBe("filter: undeclared reference to 'nmae' at column 1");
    expect(err.toBody().details).toEqual([
      {
        '@type': 'type.googleapis.com/google.rpc.BadRequest',
        fieldViolations: [{ field: 'filter', description: "undeclared reference to 'nmae' at column 1" }],
      },
    ]);
  });

  it('counts columns in characters (code points), not UTF-16 units', () => {
    expect(message("'😀😀' == nmae")).toBe("filter: undeclared reference to 'nmae' at column 9");
  });

  it('gives line and column for multi-line filters', () => {
    expect(message("name == 'x' &&\n  nmae == 'y'")).toBe("filter: undeclared reference to 'nmae' at line 2, column 3");
  });

  it('never leaks a stack trace or the CEL library highlight', () => {
    expect(message('name ==')).not.toMatch(/\n|at .*\.js/);
  });
});

describe('rejected filters', () => {
  it.each([
    // syntax
    ['name ==', /^filter: syntax error: unexpected token: EOF at column 8$/],
    ["name == 'x", /^filter: syntax error: .*at column 9$/],
    ["name = 'x'", /^filter: syntax error: .*at column 6$/],
    ['name == "x" )', /^filter: syntax error: .*at column 13$/],
    // unknown fields and functions
    ["nmae == 'x'", /^filter: undeclared reference to 'nmae' at column 1$/],
    ["tags == 'x'", /^filter: undeclared reference to 'tags' at column 1$/],
    ["name.lowerAscii() == 'x'", /^filter: lowerAscii\(\) of a field is not supported in filters at column 1$/],
    ["name.reverse() == 'x'", /no matching overload for 'string.reverse\(\)' at column 1$/],
    ['foo(name)', /no matching overload for 'foo\(string\)' at column 1$/],
    // type mismatches
    ['name == 1', /^filter: no such overload: string == int at column 1$/],
    ["start_time > '2024-01-01'", /no such overload: google.protobuf.Timestamp > string at column 1$/],
    ['name == null', /no such overload: string == null at column 1$/],
    ['run_id == 1', /^filter: no such overload: string == int at column 1$/],
    ['archived_date > 5', /no such overload: google.protobuf.Timestamp > int at column 1$/],
    ['run_id < null', /no such overload: dyn < null at column 1$/],
    ['run_id', /run_id' is string; it cannot be used in a condition at column 1$/],
    ['archived_date.startsWith("a")', /is google.protobuf.Timestamp; it cannot be used in startsWith\(\)/],
    ["links.exists(l, l == 'x')", /undeclared reference to 'links'/],
    // Relations used as lists are lists of their element type.
    ['tag_name.exists(t, t == 1)', /no such overload: string == int/],
    ["'x' in assignee && 1 in tag_name", /no such overload: int in list<string>/],
    ['tag_name.map(t, t) == []', /map\(\) of a field is not supported in filters/],
    // not a condition
    ['name', /^filter: filter must be a condition \(bool\), but it is string at column 1$/],
    ["timestamp('2024-01-01T00:00:00Z')", /must be a condition \(bool\), but it is google.protobuf.Timestamp/],
    // enums
    [
      "state == 'OPEN'",
      /^filter: 'OPEN' is not a value of state; expected one of: ANNOTATION_STATE_UNSPECIFIED, ANNOTATION_STATE_OPEN, ANNOTATION_STATE_FLAGGED, ANNOTATION_STATE_RESOLVED at column 10$/,
    ],
    ["state in [ANNOTATION_STATE_OPEN, 'CLOSED']", /'CLOSED' is not a value of state.* at column 34$/],
    ['state == ANNOTATION_TYPE_PHASE_X', /undeclared reference to 'ANNOTATION_TYPE_PHASE_X'|is not a value of state/],
    // literals validated up front
    ["name.matches('(')", /^filter: invalid regular expression: .*missing closing \).* at column 14$/],
    [`name.matches('${'a'.repeat(MAX_REGEX_LENGTH + 1)}')`, /regular expression is longer than 1000 characters at column 14$/],
    ["name.matches('(a{1,1000}){1,1000}')", /^filter: invalid regular expression: .*expression too large at column 14$/],
    [
      "start_time > timestamp('2024-13-01T00:00:00Z')",
      /^filter: invalid timestamp '2024-13-01T00:00:00Z': expected an RFC 3339 timestamp .* at column 24$/,
    ],
    ["start_time > timestamp('2024-01-01')", /invalid timestamp '2024-01-01'/],
    ["start_time > timestamp('0000-12-31T00:00:00Z')", /invalid timestamp/],
    ["end_time - start_time > duration('1 hour')", /^filter: invalid duration '1 hour'.* at column 34$/],
    ["end_time - start_time > duration('400000000000s')", /invalid duration/],
    // what the compiler cannot turn into SQL
    ["name + 'x' == 'y'", /arithmetic on fields is not supported in filters .* at column 1$/],
    ['size(name) + 1 > 2', /arithmetic on fields is not supported/],
    ['int(name) == 1', /int\(\) of a field is not supported in filters at column 1$/],
    ["timestamp(name) > timestamp('2024-01-01T00:00:00Z')", /timestamp\(\) of a field is not supported/],
    ["metadata[name] == 'x'", /the key of metadata\[...\] must be a constant at column 10$/],
    ['name in metadata', /the key tested with 'in metadata' must be a constant at column 1$/],
    ['metadata == {}', /'metadata' is a map; use metadata\['key'\]/],
    ["metadata.exists(k, k == 'env')", /exists\(\) is supported over list literals and relation fields, not over 'metadata'/],
    ["[name].exists(x, x == 'a')", /exists\(\) is supported over list literals and relation fields/],
    ['start_time.getHours() == 3', /^filter: getHours\(\) of a field is not supported in filters at column 1$/],
    ['[1, 2].map(x, x * 2) == [name.size()]', /^filter: '\[name.size\(\)\]' is not supported in filters at column 25$/],
  ])('%s', (filter, expected) => {
    expect(message(filter)).toMatch(expected);
  });

  it('only accepts its own fields for annotation logs', () => {
    expect(rejection("tag_name == 'x'", annotationLogListSpec.filterFields).message).toBe(
      "filter: undeclared reference to 'tag_name' at column 1",
    );
    expect(
      compileFilter(annotationLogListSpec.filterFields, "kind == 'ANNOTATION_LOG_KIND_COMMENT' && annotation_id == 'a'").params,
    ).toEqual([1n, 'a']);
  });
});

describe('limits, at their edges', () => {
  it(`accepts a filter of ${MAX_FILTER_LENGTH} characters and rejects one more`, () => {
    const atLimit = `name == '${'a'.repeat(MAX_FILTER_LENGTH - 10)}'`;
    expect(atLimit.length).toBe(MAX_FILTER_LENGTH);
    expect(runs(atLimit)).toBe(true);
    expect(message(`${atLimit} `)).toBe(`filter: filter is ${MAX_FILTER_LENGTH + 1} characters long; the limit is ${MAX_FILTER_LENGTH}`);
  });

  it(`accepts ${MAX_AST_NODES} syntax nodes and rejects one more`, () => {
    // `pending` is one node, `!pending` two, each `||` one: n terms with k negations make 2n - 1 + k nodes.
    const terms = (n: number, negated: number) => Array.from({ length: n }, (_, i) => (i < negated ? '!pending' : 'pending')).join(' || ');
    expect(runs(terms(MAX_AST_NODES / 2, 1))).toBe(true);
    expect(message(terms(MAX_AST_NODES / 2, 2))).toMatch(
      new RegExp(`^filter: filter is too complex: more than ${MAX_AST_NODES} operators, fields and literals at column \\d+$`),
    );
  });

  it(`accepts ${MAX_NESTING_DEPTH - 1} nested parentheses (${MAX_NESTING_DEPTH} levels) and rejects one more`, () => {
    const nested = (n: number) => `${'('.repeat(n)}name == 'x'${')'.repeat(n)}`;
    expect(runs(nested(MAX_NESTING_DEPTH - 1))).toBe(true);
    expect(message(nested(MAX_NESTING_DEPTH))).toBe(
      `filter: filter nests more than ${MAX_NESTING_DEPTH} levels deep at column ${MAX_NESTING_DEPTH + 1}`,
    );
  });

  it(`accepts a list literal of ${MAX_LIST_ELEMENTS} elements and rejects one more`, () => {
    const list = (n: number) =>
      `annotation_id in [${Array.from({ length: n }, (_, i) => `'00000000-0000-4000-8000-${String(i).padStart(12, '0')}'`).join(', ')}]`;
    expect(runs(list(MAX_LIST_ELEMENTS))).toBe(true);
    expect(message(list(MAX_LIST_ELEMENTS + 1))).toMatch(
      new RegExp(`^filter: list literal has more than ${MAX_LIST_ELEMENTS} elements at column \\d+$`),
    );
  });

  it(`rejects a filter needing more than ${MAX_SQL_PARAMS} SQL parameters (comprehensions over lists are unrolled)`, () => {
    const list = `[${Array.from({ length: 100 }, (_, i) => `'${i}'`).join(', ')}]`;
    expect(runs(`${list}.exists(x, name.startsWith(x))`)).toBe(true);
    expect(message(`${list}.exists(x, ${list}.exists(y, name == x + y))`)).toBe(
      `filter: filter is too complex: it needs more than ${MAX_SQL_PARAMS} SQL parameters`,
    );
  });

  it('rejects exponential blow-up (nested conditionals in conditions) instead of building it', () => {
    let filter = 'pending';
    for (let i = 0; i < 20; i++) filter = `(${filter} ? pending : is_archived)`;
    expect(message(filter)).toMatch(/too complex/);
  });

  it('runs the longest chains and widest lists the limits allow (SQLite expression depth)', () => {
    // 500 comparisons of 3 nodes and 499 `||`: 1999 nodes.
    const ors = Array.from({ length: 500 }, (_, i) => `name == '${i}'`).join(' || ');
    expect(runs(ors)).toBe(true);
    const tags = Array.from({ length: 300 }, (_, i) => `tag_name == '${i}'`).join(' && ');
    expect(runs(`!(${tags})`)).toBe(true);
    const one = `[${Array.from({ length: MAX_LIST_ELEMENTS }, (_, i) => i).join(', ')}].exists_one(x, size(name) == x)`;
    expect(runs(one)).toBe(true);
  });
});
