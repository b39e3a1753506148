// CEL filter -> parameterized SQL condition over the base table alias `t`.
//
// Pipeline: parseFilter.ts (limits, parse, enum names, type-check against the
// resource's FilterFields) -> directives (top-level pseudo-fields) ->
// celToSql.ts (dual-rail compilation, see there). Anything that cannot be
// compiled is INVALID_ARGUMENT naming the column; a filter is never evaluated
// row by row in JS.
//
// Semantics decided here (and documented for API users):
// - Absent optional fields (run_id, state, archived_date, ... stored as NULL)
//   read as CEL `null`: `run_id == null` finds them, `run_id != 'x'` and
//   `!(run_id == 'x')` include them (== never fails in CEL), while ordering
//   and string functions on them are CEL errors (`run_id < 'm'`,
//   `run_id.startsWith('a')`), so such a row matches neither the condition
//   nor its negation.
// - Relation fields (tag_name, asset_id, asset_name, assignee, ...) mean "some
//   element": a leaf P(tag_name) is tag_name.exists(x, P(x)). So
//   `!(tag_name == 'x')` is "no tag is x" (rows without tags included) and
//   `tag_name != 'x'` is "some tag is not x". Used as a list they are the
//   list of elements (relationLists.ts): `'x' in tag_name`, `size(tag_name)`,
//   `tag_name.exists(t, ...)` / `.all` / `.exists_one`; a relation with no
//   sources has no elements (size 0, `in` false, exists false, all true).
// - Enum values: bare names (state == ANNOTATION_STATE_OPEN), strings
//   (state == 'ANNOTATION_STATE_OPEN') or numbers (state == 1, CEL's view of
//   proto enums); an unknown name is INVALID_ARGUMENT.
// - int, uint and double compare numerically across types where the CEL
//   type-checker allows it (ordering, and == on dyn values such as metadata).
// - Literal timestamps, durations and regular expressions are validated at
//   compile time (like cel-go's literal validators); other constant
//   sub-expressions that fail (1/0) are CEL errors at run time.
import type { ASTNode } from '@marcbachmann/cel-js';
import { CelToSql } from './celToSql';
import type { FilterFields } from './fields';
import { FilterCompileError, filterError } from './filterError';
import { MAX_SQL_PARAMS } from './limits';
import { parseAndCheck } from './parseFilter';
import { and, raw, type Sql } from './sql';

export interface CompiledFilter {
  readonly sql: string;
  readonly params: unknown[];
  /**
   * Top-level relation conditions written as semi-joins (`t.pk IN (SELECT ...)`)
   * that may be rewritten as correlated EXISTS when many child rows match
   * (semiJoinPlanner.ts); the SQL is correct either way.
   */
  readonly semiJoins?: readonly SemiJoinChoice[];
}

export interface SemiJoinChoice {
  /** The semi-join's text, exactly as it appears once in `sql`. */
  readonly semiJoin: string;
  /** The same condition as a correlated EXISTS, with the same parameters in the same order. */
  readonly exists: string;
  /** `SELECT count(*) AS n FROM (... LIMIT ?)` over the matching child rows, and its parameters (without the limit). */
  readonly probe: { readonly sql: string; readonly params: readonly unknown[] };
  /** How many other top-level conditions the filter has (each makes walking the order longer). */
  readonly otherConditions: number;
  /** The SQL over `t` the semi-join's child rows point at (e.g. `t.pk`). */
  readonly parentKey: string;
}

interface DirectiveSetting {
  readonly name: string;
  readonly value: boolean;
}

/** `d`, `!d`, `d == true`, `false != d`, ...: a top-level conjunct that sets a directive. */
function directiveSetting(node: ASTNode, fields: FilterFields): DirectiveSetting | undefined {
  const isDirective = (n: ASTNode) =>
    n.op === 'id' && Object.hasOwn(fields, n.args as string) && fields[n.args as string].kind === 'directive';
  if (isDirective(node)) return { name: node.args as string, value: true };
  if (node.op === '!_' && isDirective(node.args as ASTNode)) return { name: (node.args as ASTNode).args as string, value: false };
  if (node.op === '==' || node.op === '!=') {
    const [l, r] = node.args as [ASTNode, ASTNode];
    const [d, v] = isDirective(l) ? [l, r] : isDirective(r) ? [r, l] : [undefined, undefined];
    if (d && v && v.op === 'value' && typeof v.args === 'boolean') {
      return { name: d.args as string, value: node.op === '==' ? v.args : !v.args };
    }
  }
  return undefined;
}

function conjuncts(node: ASTNode): ASTNode[] {
  return node.op === '&&' ? (node.args as [ASTNode, ASTNode]).flatMap(conjuncts) : [node];
}

/** The scope restriction of every directive the filter did not set to true. */
function directiveDefaults(fields: FilterFields, setTrue: ReadonlySet<string>): Sql[] {
  return Object.entries(fields).flatMap(([name, f]) => (f.kind === 'directive' && !setTrue.has(name) ? [raw(f.unlessTrue)] : []));
}

function toCompiled(s: Sql, semiJoins: readonly SemiJoinChoice[] = []): CompiledFilter {
  // Frozen: compiled filters are shared through the cache.
  return Object.freeze({
    sql: s.text,
    params: Object.freeze([...s.params]) as unknown[],
    ...(semiJoins.length ? { semiJoins: Object.freeze(semiJoins) } : {}),
  });
}

/** Compiled filters per declaration: paging repeats the same filter, and parsing plus type-checking dominate. */
const CACHE_SIZE = 256;
const cache = new WeakMap<FilterFields, Map<string, CompiledFilter>>();

export function compileFilter(fields: FilterFields, filter: string | undefined): CompiledFilter {
  if (!filter || filter.trim() === '') return toCompiled(and(...directiveDefaults(fields, new Set())));
  let cached = cache.get(fields);
  if (!cached) cache.set(fields, (cached = new Map()));
  const hit = cached.get(filter);
  if (hit) {
    cached.delete(filter);
    cached.set(filter, hit);
    return hit;
  }
  const compiled = compileUncached(fields, filter);
  if (cached.size >= CACHE_SIZE) cached.delete(cached.keys().next().value as string);
  cached.set(filter, compiled);
  return compiled;
}

function compileUncached(fields: FilterFields, filter: string): CompiledFilter {
  const checked = parseAndCheck(fields, filter);
  try {
    const compiler = new CelToSql(fields);
    const setTrue = new Set<string>();
    const parts: Sql[] = [];
    for (const c of conjuncts(checked.ast)) {
      const setting = directiveSetting(c, fields);
      if (setting) {
        if (setting.value) setTrue.add(setting.name);
        continue;
      }
      parts.push(compiler.condition(c, new Map()).pos);
    }
    const defaults = directiveDefaults(fields, setTrue);
    const compiled = and(...parts, ...defaults);
    if (compiled.params.length > MAX_SQL_PARAMS) {
      throw new FilterCompileError(`filter is too complex: it needs more than ${MAX_SQL_PARAMS} SQL parameters`);
    }
    const semiJoins = parts.flatMap((p): SemiJoinChoice[] =>
      p.semiJoin
        ? [
            {
              semiJoin: p.text,
              exists: p.semiJoin.exists.text,
              probe: { sql: p.semiJoin.probe.text, params: p.semiJoin.probe.params },
              otherConditions: parts.length + defaults.length - 1,
              parentKey: p.semiJoin.parentKey,
            },
          ]
        : [],
    );
    return toCompiled(compiled, semiJoins);
  } catch (err) {
    if (err instanceof FilterCompileError) throw filterError(err.message, filter, err.offset);
    throw err;
  }
}
