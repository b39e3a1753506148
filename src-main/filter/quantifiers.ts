// exists / all / exists_one as dual-rail conditions (see operands.ts), over
// the unrolled elements of a list literal or over related rows in SQL.
import type { RelatedRows } from './fields';
import { ALWAYS_FALSE, type Condition } from './operands';
import { countRelated, noRelated, someRelated, type Aliases } from './relatedRows';
import { and, balanced, isNotOne, isOne, or, sql } from './sql';

/** The quantifier over conditions of each element (a comprehension over a list literal, unrolled). */
export function quantifyUnrolled(method: string, parts: readonly Condition[]): Condition {
  switch (method) {
    case 'exists':
      return { pos: or(...parts.map((p) => p.pos)), neg: and(...parts.map((p) => p.neg)) };
    case 'all':
      return { pos: and(...parts.map((p) => p.pos)), neg: or(...parts.map((p) => p.neg)) };
    default: {
      // exists_one: exactly one element true, and no element an error.
      const noErrors = and(...parts.map((p) => or(p.pos, p.neg)));
      if (parts.length === 0) return ALWAYS_FALSE;
      const count = sql`(${balanced(parts.map((p) => isOne(p.pos)), '+')})`;
      return { pos: and(sql`${count} = 1`, noErrors), neg: and(sql`${count} <> 1`, noErrors) };
    }
  }
}

/** The quantifier over related rows, given the condition compiled for one row. */
export function quantifyRelated(method: string, rows: RelatedRows, aliases: Aliases, inner: Condition): Condition {
  switch (method) {
    case 'exists':
      return { pos: someRelated(rows, aliases, inner.pos), neg: noRelated(rows, aliases, isNotOne(inner.neg)) };
    case 'all':
      return { pos: noRelated(rows, aliases, isNotOne(inner.pos)), neg: someRelated(rows, aliases, inner.neg) };
    default: {
      // exists_one evaluates every element: one error makes the result an error.
      const noErrors = noRelated(rows, aliases, and(isNotOne(inner.pos), isNotOne(inner.neg)));
      const trueCount = countRelated(rows, aliases, inner.pos);
      return { pos: and(sql`${trueCount} = 1`, noErrors), neg: and(sql`${trueCount} <> 1`, noErrors) };
    }
  }
}
