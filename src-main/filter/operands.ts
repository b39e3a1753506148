// Operands of compiled conditions: what a CEL sub-expression is in SQL.
//
// A Condition is compiled "dual-rail": `pos` is TRUE exactly on the rows
// where the CEL expression is true, `neg` exactly where it is false. Rows
// where CEL evaluates to an error (or a non-bool) are in neither. This is how
// SQL's NULL logic is kept out of CEL's: negation swaps the rails instead of
// wrapping SQL NOT around something that may be NULL.
import { CelErrorValue, type ConstValue } from './constants';
import { and, isNotOne, isTrue, or, raw, sql, type Sql, TRUE } from './sql';

export interface Condition {
  readonly pos: Sql;
  readonly neg: Sql;
  /**
   * Every row is on exactly one rail (no SQL NULL, no CEL error), so NOT pos is neg. Then "not false" can be
   * written as pos itself, which keeps an index usable where `(neg) IS NOT 1` would not (a negated relation
   * `!(tag_name == 'x')` probes the child rows' primary key by (parent, value) instead of reading every child).
   */
  readonly total?: boolean;
}

export function negate(c: Condition): Condition {
  return { pos: c.neg, neg: c.pos, total: c.total };
}

/** Where the condition is not false (true, or a CEL error): what "no element makes it false" excludes. */
export function notFalse(c: Condition): Sql {
  return c.total ? c.pos : isNotOne(c.neg);
}

/** Where the condition is not true (false, or a CEL error). */
export function notTrue(c: Condition): Sql {
  return c.total ? c.neg : isNotOne(c.pos);
}

export const ALWAYS_TRUE: Condition = { pos: TRUE, neg: raw('0'), total: true };
export const ALWAYS_FALSE: Condition = { pos: raw('0'), neg: TRUE, total: true };
/** A CEL error: neither true nor false on any row. */
export const ALWAYS_ERROR: Condition = { pos: raw('0'), neg: raw('0') };

export interface ConstOperand {
  readonly kind: 'const';
  readonly value: ConstValue;
}

/** A value computed per row. */
export interface ValueOperand {
  readonly kind: 'value';
  readonly family: 'string' | 'number' | 'bool' | 'timestamp' | 'duration';
  /** The SQL value; timestamps and durations are INTEGER microseconds. */
  readonly sql: Sql;
  /** Timestamps/durations: the CEL value in nanoseconds is sql * 1000 + nsOffset. */
  readonly nsOffset: bigint;
  /** What a SQL NULL means: an absent field (CEL null), a CEL error, or it cannot happen. */
  readonly onNull: 'never' | 'null' | 'error';
  /** TRUE where evaluating the value succeeds (e.g. timestamp arithmetic stays in range). */
  readonly guard?: Sql;
  /** bool only: sargable predicates for `sql = 1` / `sql = 0`. */
  readonly whenTrue?: Sql;
  readonly whenFalse?: Sql;
  /** Numbers: the CEL type, because CEL compares an int with a double by converting the int to double. */
  readonly numeric?: 'int' | 'uint' | 'double';
  /**
   * The declared CEL type of an optional field. The type-checker sees such
   * fields as dyn (so `== null` checks), so the compiler checks their uses.
   */
  readonly declaredType?: string;
}

/** A dyn value stored with a type tag (metadata): one alternative per possible type. */
export interface DynOperand {
  readonly kind: 'dyn';
  readonly variants: readonly { readonly when: Sql; readonly value: ValueOperand }[];
}

export type Operand = ConstOperand | ValueOperand | DynOperand;

export function constant(value: ConstValue): ConstOperand {
  return { kind: 'const', value };
}

export function isErrorConst(o: Operand): boolean {
  return o.kind === 'const' && o.value instanceof CelErrorValue;
}

/** TRUE where the value evaluates without error (a CEL null is a value, not an error). */
export function defined(v: ValueOperand): Sql {
  return and(v.guard ?? TRUE, v.onNull === 'error' ? sql`${v.sql} IS NOT NULL` : TRUE);
}

/** TRUE where the value evaluates to something other than null or an error. */
export function present(v: ValueOperand): Sql {
  return and(v.guard ?? TRUE, v.onNull === 'never' ? TRUE : sql`${v.sql} IS NOT NULL`);
}

export type Alternative = { readonly when: Sql; readonly operand: ConstOperand | ValueOperand };

/** The mutually exclusive shapes an operand can take at run time. */
export function alternatives(o: Operand): Alternative[] {
  if (o.kind === 'dyn') return o.variants.map((v) => ({ when: v.when, operand: v.value }));
  return [{ when: TRUE, operand: o }];
}

/** Combines a per-alternative comparison over every pair of alternatives of two operands. */
export function overAlternatives(
  a: Operand,
  b: Operand,
  compare: (x: ConstOperand | ValueOperand, y: ConstOperand | ValueOperand) => Condition,
): Condition {
  const pos: Sql[] = [];
  const neg: Sql[] = [];
  // One unconditional pair (neither side a dyn value) keeps its comparison's totality.
  let total = true;
  for (const x of alternatives(a)) {
    for (const y of alternatives(b)) {
      const c = compare(x.operand, y.operand);
      pos.push(and(x.when, y.when, c.pos));
      neg.push(and(x.when, y.when, c.neg));
      total &&= isTrue(x.when) && isTrue(y.when) && c.total === true;
    }
  }
  return { pos: or(...pos), neg: or(...neg), total: total && pos.length === 1 };
}

/** A bool condition used as a value: 1, 0, or NULL for an error. */
export function conditionAsValue(c: Condition): ValueOperand {
  const value = sql`CASE WHEN ${c.pos} THEN 1 WHEN ${c.neg} THEN 0 END`;
  return { kind: 'value', family: 'bool', sql: value, nsOffset: 0n, onNull: 'error', whenTrue: c.pos, whenFalse: c.neg };
}

/** A bool value used as a condition. */
export function valueAsCondition(o: Operand): Condition {
  const pos: Sql[] = [];
  const neg: Sql[] = [];
  for (const { when, operand } of alternatives(o)) {
    if (operand.kind === 'const') {
      if (operand.value === true) pos.push(when);
      else if (operand.value === false) neg.push(when);
      continue; // other constants (and errors) are neither true nor false
    }
    if (operand.family !== 'bool') continue;
    const guard = operand.guard ?? TRUE;
    pos.push(and(when, guard, operand.whenTrue ?? sql`${operand.sql} = 1`));
    neg.push(and(when, guard, operand.whenFalse ?? sql`${operand.sql} = 0`));
  }
  return { pos: or(...pos), neg: or(...neg) };
}
