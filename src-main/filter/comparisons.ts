// CEL ==, !=, <, <=, >, >= and `in` as dual-rail conditions (see operands.ts).
//
// Semantics follow CEL: == and != never fail (values of different types are
// unequal, except that int, uint and double compare numerically); ordering
// needs comparable types and is an error otherwise (including against null).
// Comparisons of a column with a constant stay sargable: `col = ?`,
// `col > ?`, `col IN (...)`.
import { CelErrorValue, familyOfConst, numericParam, TimeConstant, type ConstValue, type Family } from './constants';
import {
  ALWAYS_ERROR,
  defined,
  isErrorConst,
  negate,
  overAlternatives,
  present,
  type Condition,
  type ConstOperand,
  type Operand,
  type ValueOperand,
} from './operands';
import { and, FALSE, join, or, param, raw, sql, type Sql, type SqlParam, TRUE } from './sql';
import { ceilDiv, floorDiv } from './timeValues';

export type OrderingOp = '<' | '<=' | '>' | '>=';
export type ComparisonOp = '==' | '!=' | OrderingOp;

const COMPLEMENT: Record<OrderingOp, OrderingOp> = { '<': '>=', '<=': '>', '>': '<=', '>=': '<' };
const FLIPPED: Record<OrderingOp, OrderingOp> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

/** Thrown when two constants can only be compared by the CEL library (lists, maps, bytes, types). */
export class NeedsFolding extends Error {}

const SCALAR_FAMILIES = new Set<Family>(['string', 'number', 'bool', 'null', 'timestamp', 'duration']);

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * A scalar constant as a SQL parameter (times are compared in JS, never bound).
 * Against a double, an int or uint is converted to double first, as CEL does
 * (so `dyn(9223372036854775807) < 9223372036854775808.0` is false); SQLite
 * alone would compare them exactly.
 */
function scalarParam(v: ConstValue, againstDouble = false): SqlParam {
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v === 'string') return v;
  const n = numericParam(v);
  if (againstDouble && typeof n === 'bigint') return Number(n);
  // Beyond int64 only uints can go; SQLite has no such integers, a double is the closest.
  if (typeof n === 'bigint' && (n < INT64_MIN || n > INT64_MAX)) return Number(n);
  return n;
}

/** Two scalar constants as parameters, converting an int to double when the other is a double. */
function constParams(a: ConstValue, b: ConstValue): [SqlParam, SqlParam] {
  return [scalarParam(a, typeof b === 'number'), scalarParam(b, typeof a === 'number')];
}

function isNaNConst(v: ConstValue): boolean {
  return typeof v === 'number' && Number.isNaN(v);
}

function comparableFamilies(a: Family, b: Family): boolean {
  return a === b && a !== 'null';
}

/** Nanoseconds of a time operand's constant part, for comparisons against SQL microseconds. */
function boundFor(op: ComparisonOp, numeratorNs: bigint): { op: ComparisonOp; micros: bigint } | 'always' | 'never' {
  // X (integer microseconds) op numeratorNs / 1000
  const exact = numeratorNs % 1000n === 0n;
  switch (op) {
    case '==':
      return exact ? { op, micros: numeratorNs / 1000n } : 'never';
    case '!=':
      return exact ? { op, micros: numeratorNs / 1000n } : 'always';
    case '<':
      return { op, micros: ceilDiv(numeratorNs, 1000n) };
    case '<=':
      return { op, micros: floorDiv(numeratorNs, 1000n) };
    case '>':
      return { op, micros: floorDiv(numeratorNs, 1000n) };
    case '>=':
      return { op, micros: ceilDiv(numeratorNs, 1000n) };
  }
}

function compareConstants(a: ConstValue, op: ComparisonOp, b: ConstValue): boolean {
  if (a instanceof TimeConstant && b instanceof TimeConstant) {
    switch (op) {
      case '==':
        return a.ns === b.ns;
      case '!=':
        return a.ns !== b.ns;
      case '<':
        return a.ns < b.ns;
      case '<=':
        return a.ns <= b.ns;
      case '>':
        return a.ns > b.ns;
      case '>=':
        return a.ns >= b.ns;
    }
  }
  throw new Error('compareConstants: times only');
}

// ---------------------------------------------------------------------------
// Equality

function eqConstConst(a: ConstValue, b: ConstValue): Condition {
  const fa = familyOfConst(a);
  const fb = familyOfConst(b);
  if (!SCALAR_FAMILIES.has(fa) || !SCALAR_FAMILIES.has(fb)) {
    if (fa !== fb) return { pos: FALSE, neg: TRUE };
    throw new NeedsFolding();
  }
  if (fa !== fb) return { pos: FALSE, neg: TRUE };
  if (fa === 'null') return { pos: TRUE, neg: FALSE };
  if (fa === 'timestamp' || fa === 'duration') {
    const eq = compareConstants(a, '==', b);
    return { pos: eq ? TRUE : FALSE, neg: eq ? FALSE : TRUE };
  }
  if (isNaNConst(a) || isNaNConst(b)) return { pos: FALSE, neg: TRUE };
  // Compared by SQLite, so constant comparisons exercise the same SQL as column ones.
  const [pa, pb] = constParams(a, b);
  return { pos: sql`${param(pa)} = ${param(pb)}`, neg: sql`${param(pa)} <> ${param(pb)}` };
}

function notEqualSql(v: ValueOperand, other: Sql, otherMayBeNull: boolean): Sql {
  return v.onNull === 'null' || otherMayBeNull ? sql`${v.sql} IS NOT ${other}` : sql`${v.sql} <> ${other}`;
}

function eqValueConst(v: ValueOperand, c: ConstValue): Condition {
  const fc = familyOfConst(c);
  const guard = v.guard ?? TRUE;
  if (fc === 'null') {
    if (v.onNull !== 'null') return { pos: FALSE, neg: defined(v) };
    return { pos: and(guard, sql`${v.sql} IS NULL`), neg: and(guard, sql`${v.sql} IS NOT NULL`) };
  }
  if (fc !== v.family || isNaNConst(c)) return { pos: FALSE, neg: defined(v) };
  if (v.family === 'bool') {
    const isTrueValue = sql`${v.sql} = 1`;
    const isFalseValue = sql`${v.sql} = 0`;
    const whenTrue = v.whenTrue ?? isTrueValue;
    const whenFalse = v.whenFalse ?? isFalseValue;
    const nullCase = v.onNull === 'null' ? sql`${v.sql} IS NULL` : FALSE;
    return c === true
      ? { pos: and(guard, whenTrue), neg: and(guard, or(whenFalse, nullCase)) }
      : { pos: and(guard, whenFalse), neg: and(guard, or(whenTrue, nullCase)) };
  }
  if (c instanceof TimeConstant) {
    const bound = boundFor('==', c.ns - v.nsOffset);
    if (bound === 'never') return { pos: FALSE, neg: defined(v) };
    if (bound === 'always') return { pos: defined(v), neg: FALSE };
    const p = param(bound.micros);
    return { pos: and(guard, sql`${v.sql} = ${p}`), neg: and(guard, notEqualSql(v, p, false)) };
  }
  const p = param(scalarParam(c, v.numeric === 'double'));
  // A value that is never NULL and cannot fail, against a constant: equal or not, nothing else.
  const total = v.onNull === 'never' && v.guard === undefined;
  return { pos: and(guard, sql`${v.sql} = ${p}`), neg: and(guard, notEqualSql(v, p, false)), total };
}

function eqValueValue(a: ValueOperand, b: ValueOperand): Condition {
  const bothNullable = a.onNull === 'null' && b.onNull === 'null';
  const anyNullable = a.onNull === 'null' || b.onNull === 'null';
  const bothNull = bothNullable ? sql`${a.sql} IS NULL AND ${b.sql} IS NULL` : FALSE;
  const oneNull = anyNullable ? sql`(${a.sql} IS NULL) <> (${b.sql} IS NULL)` : FALSE;
  const guards = and(a.guard ?? TRUE, b.guard ?? TRUE);
  const errors = and(a.onNull === 'error' ? sql`${a.sql} IS NOT NULL` : TRUE, b.onNull === 'error' ? sql`${b.sql} IS NOT NULL` : TRUE);
  const ok = and(guards, errors);
  if (a.family !== b.family) return { pos: and(ok, bothNull), neg: and(ok, notBoth(bothNull)) };
  if (a.family === 'timestamp' || a.family === 'duration') {
    const bound = boundFor('==', b.nsOffset - a.nsOffset);
    if (bound === 'never') return { pos: and(ok, bothNull), neg: and(ok, notBoth(bothNull)) };
    if (bound === 'always') throw new Error('unreachable');
    const p = param(bound.micros);
    return {
      pos: and(ok, or(sql`${a.sql} - ${b.sql} = ${p}`, bothNull)),
      neg: and(ok, or(sql`${a.sql} - ${b.sql} <> ${p}`, oneNull)),
    };
  }
  return {
    pos: and(ok, bothNullable ? sql`${a.sql} IS ${b.sql}` : sql`${a.sql} = ${b.sql}`),
    neg: and(ok, anyNullable ? sql`${a.sql} IS NOT ${b.sql}` : sql`${a.sql} <> ${b.sql}`),
  };
}

function notBoth(bothNull: Sql): Sql {
  return bothNull.text === '0' ? TRUE : sql`NOT (${bothNull})`;
}

function eqAlternative(x: ConstOperand | ValueOperand, y: ConstOperand | ValueOperand): Condition {
  if (x.kind === 'const' && x.value instanceof CelErrorValue) return ALWAYS_ERROR;
  if (y.kind === 'const' && y.value instanceof CelErrorValue) return ALWAYS_ERROR;
  if (x.kind === 'const' && y.kind === 'const') return eqConstConst(x.value, y.value);
  if (x.kind === 'const') return eqValueConst(y as ValueOperand, x.value);
  if (y.kind === 'const') return eqValueConst(x, y.value);
  return eqValueValue(x, y);
}

export function equals(a: Operand, b: Operand): Condition {
  return overAlternatives(a, b, eqAlternative);
}

// ---------------------------------------------------------------------------
// Ordering

function orderValueConst(v: ValueOperand, op: OrderingOp, c: ConstValue): Condition {
  const fc = familyOfConst(c);
  if (!comparableFamilies(v.family, fc)) return ALWAYS_ERROR;
  const ok = present(v);
  if (isNaNConst(c)) return { pos: FALSE, neg: ok };
  if (c instanceof TimeConstant) {
    const posBound = boundFor(op, c.ns - v.nsOffset) as { op: OrderingOp; micros: bigint };
    const negBound = boundFor(COMPLEMENT[op], c.ns - v.nsOffset) as { op: OrderingOp; micros: bigint };
    return {
      pos: and(v.guard ?? TRUE, sql`${v.sql} ${opSql(posBound.op)} ${param(posBound.micros)}`),
      neg: and(v.guard ?? TRUE, sql`${v.sql} ${opSql(negBound.op)} ${param(negBound.micros)}`),
    };
  }
  const p = param(scalarParam(c, v.numeric === 'double'));
  // NULL (absent) makes both rails NULL: ordering against null is a CEL error.
  return {
    pos: and(v.guard ?? TRUE, sql`${v.sql} ${opSql(op)} ${p}`),
    neg: and(v.guard ?? TRUE, sql`${v.sql} ${opSql(COMPLEMENT[op])} ${p}`),
  };
}

function orderValueValue(a: ValueOperand, op: OrderingOp, b: ValueOperand): Condition {
  if (!comparableFamilies(a.family, b.family)) return ALWAYS_ERROR;
  const guards = and(a.guard ?? TRUE, b.guard ?? TRUE);
  if (a.family === 'timestamp' || a.family === 'duration') {
    const numerator = b.nsOffset - a.nsOffset;
    const posBound = boundFor(op, numerator) as { op: OrderingOp; micros: bigint };
    const negBound = boundFor(COMPLEMENT[op], numerator) as { op: OrderingOp; micros: bigint };
    if (numerator === 0n) {
      return { pos: and(guards, sql`${a.sql} ${opSql(op)} ${b.sql}`), neg: and(guards, sql`${a.sql} ${opSql(COMPLEMENT[op])} ${b.sql}`) };
    }
    return {
      pos: and(guards, sql`${a.sql} - ${b.sql} ${opSql(posBound.op)} ${param(posBound.micros)}`),
      neg: and(guards, sql`${a.sql} - ${b.sql} ${opSql(negBound.op)} ${param(negBound.micros)}`),
    };
  }
  return { pos: and(guards, sql`${a.sql} ${opSql(op)} ${b.sql}`), neg: and(guards, sql`${a.sql} ${opSql(COMPLEMENT[op])} ${b.sql}`) };
}

function orderConstConst(a: ConstValue, op: OrderingOp, b: ConstValue): Condition {
  const fa = familyOfConst(a);
  const fb = familyOfConst(b);
  if (!SCALAR_FAMILIES.has(fa) || !SCALAR_FAMILIES.has(fb)) {
    if (fa === 'error' || fb === 'error') return ALWAYS_ERROR;
    if (fa === fb && fa === 'bytes') throw new NeedsFolding();
    return ALWAYS_ERROR;
  }
  if (!comparableFamilies(fa, fb)) return ALWAYS_ERROR;
  if (fa === 'timestamp' || fa === 'duration') {
    const r = compareConstants(a, op, b);
    return { pos: r ? TRUE : FALSE, neg: r ? FALSE : TRUE };
  }
  if (isNaNConst(a) || isNaNConst(b)) return { pos: FALSE, neg: TRUE };
  const [pa, pb] = constParams(a, b);
  return { pos: sql`${param(pa)} ${opSql(op)} ${param(pb)}`, neg: sql`${param(pa)} ${opSql(COMPLEMENT[op])} ${param(pb)}` };
}

function opSql(op: ComparisonOp): Sql {
  return raw(op === '==' ? '=' : op === '!=' ? '<>' : op);
}

export function order(a: Operand, op: OrderingOp, b: Operand): Condition {
  return overAlternatives(a, b, (x, y) => {
    if (x.kind === 'const' && x.value instanceof CelErrorValue) return ALWAYS_ERROR;
    if (y.kind === 'const' && y.value instanceof CelErrorValue) return ALWAYS_ERROR;
    if (x.kind === 'const' && y.kind === 'const') return orderConstConst(x.value, op, y.value);
    if (x.kind === 'const') return orderValueConst(y as ValueOperand, FLIPPED[op], x.value);
    if (y.kind === 'const') return orderValueConst(x, op, y.value);
    return orderValueValue(x, op, y);
  });
}

export function compare(a: Operand, op: ComparisonOp, b: Operand): Condition {
  if (op === '==') return equals(a, b);
  if (op === '!=') return negate(equals(a, b));
  return order(a, op, b);
}

// ---------------------------------------------------------------------------
// Membership in a list

/** `x in [c1, c2, ...]` with constant elements, as `col IN (...)` where possible. */
export function inConstantList(x: Operand, elements: readonly ConstValue[]): Condition {
  const simple = elements.every((e) => {
    const f = familyOfConst(e);
    return (f === 'string' || f === 'number' || f === 'bool') && !isNaNConst(e);
  });
  if (!simple || x.kind === 'const')
    return inElements(
      x,
      elements.map((e) => ({ kind: 'const', value: e }) as ConstOperand),
    );
  return overAlternatives(x, { kind: 'const', value: null }, (alt) => {
    if (alt.kind === 'const') throw new Error('unreachable');
    const same = elements.filter((e) => familyOfConst(e) === alt.family);
    if (same.length === 0) return { pos: FALSE, neg: defined(alt) };
    const list = join(
      same.map((e) => param(scalarParam(e, alt.numeric === 'double'))),
      ', ',
    );
    const guard = alt.guard ?? TRUE;
    const notIn = alt.onNull === 'null' ? sql`(${alt.sql} IS NULL OR ${alt.sql} NOT IN (${list}))` : sql`${alt.sql} NOT IN (${list})`;
    return { pos: and(guard, sql`${alt.sql} IN (${list})`), neg: and(guard, notIn) };
  });
}

/** `x in [e1, e2, ...]` as e1 == x || e2 == x || ... (== never fails on values). */
export function inElements(x: Operand, elements: readonly Operand[]): Condition {
  // A list literal with an element that fails is itself an error.
  if (isErrorConst(x) || elements.some(isErrorConst)) return ALWAYS_ERROR;
  const conditions = elements.map((e) => equals(x, e));
  return { pos: or(...conditions.map((c) => c.pos)), neg: and(...conditions.map((c) => c.neg)) };
}
