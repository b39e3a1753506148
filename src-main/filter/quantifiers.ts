// exists / all / exists_one as dual-rail conditions (see operands.ts), over
// the unrolled elements of a list literal or over related rows in SQL.
import type { RelatedRows } from './fields';
import { ALWAYS_FALSE, notFalse, notTrue, type Condition } from './operands';
import { countRelated, noRelated, someRelated, type Aliases } from './relatedRows';
import { and, balanced, isNotOne, isOne, or, raw, sql, type Sql } from './sql';

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
      const count = sql`(${balanced(
        parts.map((p) => isOne(p.pos)),
        '+',
      )})`;
      return { pos: and(sql`${count} = 1`, noErrors), neg: and(sql`${count} <> 1`, noErrors) };
    }
  }
}

/** The quantifier over related rows, given the condition compiled for one row. */
export function quantifyRelated(method: string, rows: RelatedRows, aliases: Aliases, inner: Condition): Condition {
  switch (method) {
    case 'exists':
      return { pos: someRelated(rows, aliases, inner.pos), neg: noRelated(rows, aliases, notFalse(inner)) };
    case 'all':
      return { pos: noRelated(rows, aliases, notTrue(inner)), neg: someRelated(rows, aliases, inner.neg) };
    default: {
      // exists_one evaluates every element: one error makes the result an error.
      const noErrors = noRelated(rows, aliases, and(isNotOne(inner.pos), isNotOne(inner.neg)));
      const trueCount = countRelated(rows, aliases, inner.pos);
      return { pos: and(sql`${trueCount} = 1`, noErrors), neg: and(sql`${trueCount} <> 1`, noErrors) };
    }
  }
}

/**
 * One source of a relation's elements with the condition compiled for one of
 * its elements: related rows, or a value of the row itself (one element, none when NULL).
 */
export type ElementSource =
  | { readonly rows: RelatedRows; readonly aliases: Aliases; readonly inner: Condition }
  | { readonly rows?: undefined; readonly value: Sql; readonly inner: Condition };

/** The quantifier over the union of a relation's sources (no sources: no elements). */
export function quantifyElements(method: string, sources: readonly ElementSource[]): Condition {
  const some = (s: ElementSource, where: (c: Condition) => Sql) =>
    s.rows ? someRelated(s.rows, s.aliases, where(s.inner)) : and(sql`${s.value} IS NOT NULL`, where(s.inner));
  /** No element satisfies `where` (total: `where` must be TRUE/FALSE, not NULL). */
  const none = (s: ElementSource, where: (c: Condition) => Sql) =>
    s.rows ? noRelated(s.rows, s.aliases, where(s.inner)) : or(sql`${s.value} IS NULL`, isNotOne(where(s.inner)));
  switch (method) {
    case 'exists':
      return { pos: or(...sources.map((s) => some(s, (c) => c.pos))), neg: and(...sources.map((s) => none(s, notFalse))) };
    case 'all':
      return { pos: and(...sources.map((s) => none(s, notTrue))), neg: or(...sources.map((s) => some(s, (c) => c.neg))) };
    default: {
      // exists_one evaluates every element: one error makes the result an error.
      const noErrors = and(...sources.map((s) => none(s, (c) => and(isNotOne(c.pos), isNotOne(c.neg)))));
      const counts = sources.map((s) =>
        s.rows ? countRelated(s.rows, s.aliases, s.inner.pos) : isOne(and(sql`${s.value} IS NOT NULL`, s.inner.pos)),
      );
      const trueCount = counts.length ? sql`(${balanced(counts, '+')})` : raw('0');
      return { pos: and(sql`${trueCount} = 1`, noErrors), neg: and(sql`${trueCount} <> 1`, noErrors) };
    }
  }
}
