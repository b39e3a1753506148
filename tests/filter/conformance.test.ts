// The CEL conformance suite (cel-spec test data shipped by @bufbuild/cel-spec)
// run through the filter compiler as constant expressions: each expression is
// compiled as a filter over an empty declaration and the resulting SQL is run
// by SQLite (comparisons, string functions, logic and unrolled comprehensions
// are SQL; only non-boolean constant sub-expressions are folded, by the CEL
// library or by the exact time code).
//
// - expected true/false: `expr` selects the row iff true, `!(expr)` iff false;
// - expected error: neither selects the row (or the compiler rejects a
//   malformed literal up front, like cel-go's literal validators);
// - expected non-bool value v: `(expr) == v` selects the row.
//
// - expected error of a non-bool expression: `(expr) == (expr)` selects
//   nothing and neither does its negation.
//
// Out of scope (rejected with INVALID_ARGUMENT, never answered wrongly):
// - tests that disable type-checking, declare variables (bindings/type_env)
//   or use proto containers: filters are always type-checked against the
//   resource's own fields;
// - expressions the CEL library's type-checker rejects (it is stricter than
//   cel-go in places, e.g. `1 == 1.0` without dyn());
// - timestamp accessors (getHours() ...), time zones, string()/int()/type()
//   conversions of timestamps and durations: not supported on stored times;
// - proto messages, wrapper types, enums of the test protos, `optional`;
// - what the CEL library's parser rejects (message literals, `.99`).
//
// Known divergences of the CEL library itself (KNOWN_LIBRARY_DIVERGENCES):
// constant sub-expressions are folded by the library, so where it departs
// from the spec we answer like it; the test checks the library really does.
import { tests as conformanceData } from '@bufbuild/cel-spec/testdata/conformance.js';
import { afterAll, describe, expect, it } from 'vitest';
import { Environment, evaluate } from '@marcbachmann/cel-js';
import { ApiError } from '../../src-shared/errors';
import { openDatabase } from '../../src-main/db/database';
import { compileFilter } from '../../src-main/filter/compileFilter';
import type { SerializedIncrementalTestSuite } from '@bufbuild/cel-spec/testdata/tests.js';

const SUITES = ['logic', 'comparisons', 'string', 'timestamps', 'lists', 'macros'];

/** Rejection reasons that are documented as out of scope (see above). */
const OUT_OF_SCOPE: readonly RegExp[] = [
  /no such overload|no matching overload|found no matching overload/,
  /Unknown variable|undeclared reference/,
  /must have the same type|uses wrong type/,
  /is not supported with timestamps or durations/,
  /Cannot index type|no such field|No such key/,
  /Unknown type/,
  /is not supported in filters/,
  /must be a condition/,
  /Invalid Unicode|invalid_unicode|Invalid hex|Invalid octal|escape/i,
  /not supported/,
  /syntax error/,
  /overlaps with/,
];

/**
 * Cases where @marcbachmann/cel-js v8 itself evaluates differently from the
 * spec: bytes literals with non-ASCII characters are not UTF-8 encoded, list
 * indexes of type uint fail, and maps keep only string keys.
 */
const KNOWN_LIBRARY_DIVERGENCES: Record<string, string> = {
  'comparisons/eq_literal/eq_bytes': "b'ÿ' is one byte 0xFF, not UTF-8",
  'comparisons/ne_literal/not_ne_bytes': "b'ÿ' is one byte 0xFF, not UTF-8",
  'lists/index/zero_based_uint': 'uint list index fails',
  'macros/exists_one/map_one': 'int map keys become strings',
};

type JsonValue = Record<string, unknown>;
interface Case {
  name: string;
  expr: string;
  value?: JsonValue;
  evalError?: unknown;
  skipReason?: string;
}

function collect(suite: SerializedIncrementalTestSuite, path: string, out: Case[]): void {
  for (const s of suite.suites ?? []) collect(s, `${path}/${s.name}`, out);
  for (const t of suite.tests ?? []) {
    const o = t.original as JsonValue & { name?: string; expr: string };
    const skip = o.disableCheck
      ? 'runs without type-checking'
      : o.bindings || o.typeEnv
        ? 'declares variables'
        : o.container
          ? 'uses a proto container'
          : undefined;
    out.push({
      name: `${path}/${o.name ?? o.expr}`,
      expr: o.expr,
      value: o.value as JsonValue | undefined,
      evalError: o.evalError,
      skipReason: skip,
    });
  }
}

function quote(s: string): string {
  return `"${[...s].map((c) => (c === '"' || c === '\\' ? `\\${c}` : c === '\n' ? '\\n' : c)).join('')}"`;
}

/** The expected value as a CEL literal, or undefined when it has none (messages, types, ...). */
function literal(v: JsonValue): string | undefined {
  const [kind, raw] = Object.entries(v)[0] ?? ['nullValue', null];
  switch (kind) {
    case 'nullValue':
      return 'null';
    case 'boolValue':
      return String(raw);
    case 'int64Value':
      return String(raw);
    case 'uint64Value':
      return `${String(raw)}u`;
    case 'doubleValue': {
      const d = Number(raw);
      if (Number.isNaN(d)) return "double('NaN')";
      if (!Number.isFinite(d)) return d > 0 ? "double('Infinity')" : "double('-Infinity')";
      const text = String(raw);
      return /[.eE]/.test(text) ? text : `${text}.0`;
    }
    case 'stringValue':
      return quote(String(raw));
    case 'bytesValue':
      return `b"${[...Buffer.from(String(raw), 'base64')].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('')}"`;
    case 'listValue': {
      const values = ((raw as { values?: JsonValue[] }).values ?? []).map(literal);
      return values.every((x) => x !== undefined) ? `[${values.join(', ')}]` : undefined;
    }
    default:
      return undefined;
  }
}

const db = openDatabase(':memory:');
afterAll(() => db.close());

/** Whether the compiled filter selects the one row. */
function selects(expr: string): boolean {
  const compiled = compileFilter({}, expr);
  const row = db.raw.prepare(`SELECT 1 AS ok WHERE (${compiled.sql})`).get(...(compiled.params as never[]));
  return row !== undefined;
}

const checkEnv = new Environment();

/** The expression itself when it is a condition, else `(expr) == (expr)` (an error stays an error). */
function booleanProbe(expr: string): string {
  const checked = checkEnv.check(expr);
  return checked.valid && checked.type !== 'bool' ? `(${expr}) == (${expr})` : expr;
}

type Outcome =
  { kind: 'pass' } | { kind: 'rejected'; reason: string } | { kind: 'skipped'; reason: string } | { kind: 'wrong'; detail: string };

function run(c: Case): Outcome {
  if (c.skipReason) return { kind: 'skipped', reason: c.skipReason };
  try {
    if (c.evalError !== undefined) {
      const probe = booleanProbe(c.expr);
      const t = selects(probe);
      const f = selects(`!(${probe})`);
      return !t && !f ? { kind: 'pass' } : { kind: 'wrong', detail: `expected an error, got ${t ? 'true' : 'false'}` };
    }
    if (!c.value) return { kind: 'skipped', reason: 'no expected value' };
    if ('boolValue' in c.value) {
      const expected = c.value.boolValue === true;
      const t = selects(c.expr);
      const f = selects(`!(${c.expr})`);
      if (t === expected && f === !expected) return { kind: 'pass' };
      return { kind: 'wrong', detail: `expected ${expected}, expr selected: ${t}, negation selected: ${f}` };
    }
    const lit = literal(c.value);
    if (lit === undefined) return { kind: 'skipped', reason: `expected value has no CEL literal (${Object.keys(c.value)[0]})` };
    const isNaN = lit === "double('NaN')";
    const probe = isNaN ? `(${c.expr}) != (${c.expr})` : `(${c.expr}) == ${lit}`;
    return selects(probe) ? { kind: 'pass' } : { kind: 'wrong', detail: `${probe} did not select the row` };
  } catch (err) {
    if (err instanceof ApiError && err.code === 3) {
      if (c.evalError !== undefined && /invalid (timestamp|duration)|regular expression/.test(err.message)) return { kind: 'pass' };
      return { kind: 'rejected', reason: err.message };
    }
    throw err;
  }
}

const cases: Case[] = [];
for (const name of SUITES) {
  const suite = conformanceData.suites!.find((s) => s.name === name)!;
  collect(suite, name, cases);
}
const outcomes = cases.map((c) => ({ c, o: run(c) }));

describe('CEL conformance suite through the filter compiler', () => {
  it('never answers wrongly (except where the CEL library itself departs from the spec)', () => {
    const wrong = outcomes
      .filter((x) => x.o.kind === 'wrong' && !(x.c.name in KNOWN_LIBRARY_DIVERGENCES))
      .map((x) => `${x.c.name}: ${x.c.expr} -> ${(x.o as { detail: string }).detail}`);
    expect(wrong).toEqual([]);
  });

  it.each(Object.keys(KNOWN_LIBRARY_DIVERGENCES))('%s: the CEL library itself answers differently from the spec', (name) => {
    const x = outcomes.find((o) => o.c.name === name)!;
    expect(x.o.kind).toBe('wrong');
    let libraryAgreesWithSpec: boolean;
    try {
      const value = evaluate(x.c.expr);
      libraryAgreesWithSpec = x.c.value && 'boolValue' in x.c.value ? value === x.c.value.boolValue : false;
    } catch {
      libraryAgreesWithSpec = false;
    }
    expect(libraryAgreesWithSpec).toBe(false);
  });

  it('rejects only what is documented as out of scope', () => {
    const undocumented = outcomes
      .filter((x) => x.o.kind === 'rejected' && !OUT_OF_SCOPE.some((re) => re.test((x.o as { reason: string }).reason)))
      .map((x) => `${x.c.name}: ${x.c.expr} -> ${(x.o as { reason: string }).reason}`);
    expect(undocumented).toEqual([]);
  });

  it.each(SUITES)('passes most of the %s suite', (suite) => {
    const mine = outcomes.filter((x) => x.c.name.startsWith(`${suite}/`));
    const passed = mine.filter((x) => x.o.kind === 'pass').length;
    const inScope = mine.filter((x) => x.o.kind !== 'skipped').length;
    // Recorded so a regression in coverage shows up: see MINIMUM_PASSED.
    expect(passed).toBeGreaterThanOrEqual(MINIMUM_PASSED[suite]);
    expect(inScope).toBeGreaterThan(0);
  });
});

/** Cases passing when this file was written (pass counts may only go up). */
const MINIMUM_PASSED: Record<string, number> = {
  logic: 21,
  comparisons: 276,
  string: 51,
  timestamps: 41,
  lists: 38,
  macros: 36,
};

export function conformanceSummary(): string {
  return SUITES.map((s) => {
    const mine = outcomes.filter((x) => x.c.name.startsWith(`${s}/`));
    const count = (k: string) => mine.filter((x) => x.o.kind === k).length;
    return `${s}: ${count('pass')} pass, ${count('rejected')} rejected, ${count('skipped')} skipped, ${count('wrong')} wrong`;
  }).join('\n');
}

if (process.env.CONFORMANCE_REPORT) {
  console.log(conformanceSummary());
  for (const x of outcomes)
    if (x.o.kind !== 'pass')
      console.log(x.o.kind, x.c.name, '|', x.c.expr, '|', 'reason' in x.o ? x.o.reason : 'detail' in x.o ? x.o.detail : '');
}
