// CEL string functions in SQL, exact and case-sensitive on code points (never
// LIKE, which is case-insensitive for ASCII and treats % and _ specially):
// startsWith as an index range, endsWith via substr(), contains via instr(),
// matches via the RE2-backed cel_matches() function, size() via length().
import { CelErrorValue } from './constants';
import { ALWAYS_ERROR, alternatives, type Condition, type ConstOperand, type Operand, type ValueOperand } from './operands';
import { REGEX_SQL_FUNCTION } from './regexFunction';
import { and, FALSE, or, param, raw, sql, type Sql, TRUE } from './sql';
import { codePointLength, prefixSuccessor } from './stringPrefix';

export type StringFunction = 'startsWith' | 'endsWith' | 'contains' | 'matches';

/** SQL text of a string operand; constants become parameters. */
function stringSql(o: ConstOperand | ValueOperand): Sql {
  return o.kind === 'const' ? param(o.value as string) : o.sql;
}

function isString(o: ConstOperand | ValueOperand): boolean {
  return o.kind === 'const' ? typeof o.value === 'string' : o.family === 'string';
}

function startsWith(text: Sql, prefix: ConstOperand | ValueOperand): Condition {
  if (prefix.kind === 'const') {
    const p = prefix.value as string;
    if (p === '') return { pos: sql`${text} IS NOT NULL`, neg: FALSE };
    const next = prefixSuccessor(p);
    if (next === undefined) return { pos: sql`${text} >= ${param(p)}`, neg: sql`${text} < ${param(p)}` };
    return {
      pos: sql`${text} >= ${param(p)} AND ${text} < ${param(next)}`,
      neg: sql`(${text} < ${param(p)} OR ${text} >= ${param(next)})`,
    };
  }
  // instr() finds the first occurrence, so it is 1 exactly when text starts with the prefix ('' included).
  return { pos: sql`instr(${text}, ${prefix.sql}) = 1`, neg: sql`instr(${text}, ${prefix.sql}) <> 1` };
}

function endsWith(text: Sql, suffix: ConstOperand | ValueOperand): Condition {
  if (suffix.kind === 'const') {
    const s = suffix.value as string;
    if (s === '') return { pos: sql`${text} IS NOT NULL`, neg: FALSE };
    // substr() counts characters (code points) from the end for a negative start.
    const start = param(BigInt(-codePointLength(s)));
    return {
      pos: sql`substr(${text}, ${start}) = ${param(s)}`,
      neg: sql`substr(${text}, ${param(BigInt(-codePointLength(s)))}) <> ${param(s)}`,
    };
  }
  const tail = sql`substr(${text}, -length(${suffix.sql}))`;
  return {
    pos: sql`(${suffix.sql} = '' AND ${text} IS NOT NULL OR ${tail} = ${suffix.sql})`,
    neg: sql`(${suffix.sql} <> '' AND ${sql`substr(${text}, -length(${suffix.sql}))`} <> ${suffix.sql})`,
  };
}

function contains(text: Sql, needle: ConstOperand | ValueOperand): Condition {
  const n = stringSql(needle);
  return { pos: sql`instr(${text}, ${n}) > 0`, neg: sql`instr(${text}, ${stringSql(needle)}) = 0` };
}

function matches(text: Sql, pattern: ConstOperand | ValueOperand): Condition {
  const call = (p: Sql) => sql`${raw(REGEX_SQL_FUNCTION)}(${text}, ${p})`;
  return { pos: sql`${call(stringSql(pattern))} = 1`, neg: sql`${call(stringSql(pattern))} = 0` };
}

const FUNCTIONS: Record<StringFunction, (text: Sql, arg: ConstOperand | ValueOperand) => Condition> = {
  startsWith,
  endsWith,
  contains,
  matches,
};

/** `receiver.fn(arg)`: true/false where the receiver is a string, an error otherwise (null, other dyn types). */
export function stringFunction(fn: StringFunction, receiver: Operand, arg: Operand): Condition {
  const pos: Sql[] = [];
  const neg: Sql[] = [];
  for (const r of alternatives(receiver)) {
    for (const a of alternatives(arg)) {
      const x = r.operand;
      const y = a.operand;
      if ((x.kind === 'const' && x.value instanceof CelErrorValue) || (y.kind === 'const' && y.value instanceof CelErrorValue)) continue;
      if (!isString(x) || !isString(y)) continue;
      const c = FUNCTIONS[fn](stringSql(x), y);
      const guards = and(r.when, a.when, x.kind === 'value' ? (x.guard ?? TRUE) : TRUE, y.kind === 'value' ? (y.guard ?? TRUE) : TRUE);
      pos.push(and(guards, c.pos));
      neg.push(and(guards, c.neg));
    }
  }
  if (pos.length === 0) return ALWAYS_ERROR;
  return { pos: or(...pos), neg: or(...neg) };
}

/** size() of a string value: its length in code points; an error for other types. */
export function stringSize(o: Operand): ValueOperand | undefined {
  const alts = alternatives(o).filter((a) => a.operand.kind === 'value' && a.operand.family === 'string');
  if (alts.length === 0) return undefined;
  if (o.kind === 'value')
    return {
      kind: 'value',
      family: 'number',
      numeric: 'int',
      sql: sql`length(${o.sql})`,
      nsOffset: 0n,
      onNull: o.onNull === 'never' ? 'never' : 'error',
      guard: o.guard,
    };
  const when = alts[0].when;
  const value = alts[0].operand as ValueOperand;
  return {
    kind: 'value',
    family: 'number',
    numeric: 'int',
    sql: sql`CASE WHEN ${when} THEN length(${value.sql}) END`,
    nsOffset: 0n,
    onNull: 'error',
  };
}
