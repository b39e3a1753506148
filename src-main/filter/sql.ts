// Parameterized SQL fragments. Values only ever enter as `?` parameters; the
// text comes from the compiler and from trusted field declarations.
import { FilterCompileError } from './filterError';
import { MAX_SQL_LENGTH } from './limits';

export type SqlParam = string | number | bigint | null;

/**
 * A semi-join `t.key IN (SELECT ...)` that could also be written as a
 * correlated EXISTS (same parameters, same rows): which one is faster depends
 * on how many child rows match (see semiJoinPlanner.ts).
 */
export interface SemiJoinAlternative {
  readonly exists: Sql;
  /** Counts matching child rows, up to a limit given as its last parameter. */
  readonly probe: Sql;
  /** The SQL over `t` the child rows point at (e.g. `t.pk`): driving from the child rows looks rows of `t` up by it. */
  readonly parentKey: string;
}

export class Sql {
  readonly text: string;
  readonly params: readonly SqlParam[];
  readonly semiJoin?: SemiJoinAlternative;

  constructor(text: string, params: readonly SqlParam[] = [], semiJoin?: SemiJoinAlternative) {
    if (text.length > MAX_SQL_LENGTH) throw new FilterCompileError('filter is too complex to compile');
    this.text = text;
    this.params = params;
    this.semiJoin = semiJoin;
  }
}

/** Trusted SQL text (from the compiler or a declaration). */
export function raw(text: string): Sql {
  return new Sql(text);
}

export function param(value: SqlParam): Sql {
  return new Sql('?', [value]);
}

/** Tagged template: interpolations must be Sql fragments, so a value cannot be spliced by mistake. */
export function sql(strings: TemplateStringsArray, ...parts: Sql[]): Sql {
  let text = strings[0];
  const params: SqlParam[] = [];
  parts.forEach((p, i) => {
    text += p.text + strings[i + 1];
    params.push(...p.params);
  });
  return new Sql(text, params);
}

export function join(parts: readonly Sql[], separator: string): Sql {
  return new Sql(
    parts.map((p) => p.text).join(separator),
    parts.flatMap((p) => p.params),
  );
}

// Conditions are used for their TRUE rows only (see celToSql.ts), so FALSE and
// NULL are interchangeable and constants simplify freely.
export const TRUE = raw('1');
export const FALSE = raw('0');

export function isTrue(s: Sql): boolean {
  return s.text === '1';
}

export function isFalse(s: Sql): boolean {
  return s.text === '0' || s.text === 'NULL';
}

/**
 * `(p1) OP (p2) OP ...`, parenthesized as a balanced tree: SQLite limits the
 * height of an expression tree (1000), and a long left-deep chain of
 * `a OR b OR c ...` would reach it well before the filter's own limits.
 */
export function balanced(parts: readonly Sql[], operator: string): Sql {
  const GROUP = 8;
  if (parts.length <= GROUP)
    return join(
      parts.map((p) => sql`(${p})`),
      ` ${operator} `,
    );
  const half = Math.ceil(parts.length / 2);
  return sql`(${balanced(parts.slice(0, half), operator)}) ${raw(operator)} (${balanced(parts.slice(half), operator)})`;
}

export function and(...parts: Sql[]): Sql {
  if (parts.some(isFalse)) return FALSE;
  const kept = parts.filter((p) => !isTrue(p));
  if (kept.length === 0) return TRUE;
  if (kept.length === 1) return kept[0];
  return balanced(kept, 'AND');
}

export function or(...parts: Sql[]): Sql {
  if (parts.some(isTrue)) return TRUE;
  const kept = parts.filter((p) => !isFalse(p));
  if (kept.length === 0) return FALSE;
  if (kept.length === 1) return kept[0];
  return balanced(kept, 'OR');
}

/** 1 where the condition is TRUE, 0 where it is FALSE or NULL: makes a condition total. */
export function isOne(s: Sql): Sql {
  if (isTrue(s)) return TRUE;
  if (isFalse(s)) return FALSE;
  return sql`((${s}) IS 1)`;
}

export function isNotOne(s: Sql): Sql {
  if (isTrue(s)) return FALSE;
  if (isFalse(s)) return TRUE;
  return sql`((${s}) IS NOT 1)`;
}
