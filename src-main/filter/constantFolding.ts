// Evaluates sub-expressions that reference no field (literals, list literals,
// `timestamp('...')`, `1 + 2`, comprehension variables bound to constants)
// once at compile time. Non-time constants are evaluated by the CEL library
// itself; timestamps and durations by the exact nanosecond code in
// timeValues.ts (the library's timestamps are millisecond JS Dates).
import type { ASTNode } from '@marcbachmann/cel-js';
import { celText, checkedTypeName, childNodes, comprehensionParts } from './celAst';
import { CEL_DURATION, CEL_TIMESTAMP, foldEnvironment } from './celEnvironment';
import { CelErrorValue, TimeConstant, type ConstValue } from './constants';
import type { CelScalarType, FilterFields } from './fields';
import { FilterCompileError } from './filterError';
import { durationInRange, MAX_TIMESTAMP_DIFFERENCE_NS, parseDuration, parseTimestamp, timestampInRange } from './timeValues';

/** What a comprehension variable stands for while compiling its body. */
export type Binding =
  | { readonly kind: 'const'; readonly value: ConstValue }
  /** A record of a `messages` relation, read from the aliased child row. */
  | { readonly kind: 'message'; readonly field: string; readonly aliases: ReadonlyMap<string, string> }
  /** An element of a relation used as a list (`tag_name.exists(x, ...)`): its value SQL over the source's aliases. */
  | { readonly kind: 'element'; readonly type: CelScalarType; readonly sql: string; readonly aliases: ReadonlyMap<string, string> };

export type Scope = ReadonlyMap<string, Binding>;

/** True when the sub-expression reads no field and no record variable: it has one value for every row. */
export function isConstant(node: ASTNode, fields: FilterFields, scope: Scope): boolean {
  if (node.op === 'id') {
    const name = node.args as string;
    const bound = scope.get(name);
    if (bound) return bound.kind === 'const';
    return !Object.hasOwn(fields, name);
  }
  const comprehension = comprehensionParts(node);
  if (comprehension) {
    if (!isConstant(comprehension.receiver, fields, scope)) return false;
    const inner = new Map(scope).set(comprehension.variable, { kind: 'const', value: null });
    return comprehension.body.every((b) => isConstant(b, fields, inner));
  }
  return childNodes(node).every((c) => isConstant(c, fields, scope));
}

function involvesTime(node: ASTNode, scope: Scope): boolean {
  const t = checkedTypeName(node);
  if (t !== undefined && (t.includes(CEL_TIMESTAMP) || t.includes(CEL_DURATION))) return true;
  if ((node.op === 'call' || node.op === 'rcall') && (node.args[0] === 'timestamp' || node.args[0] === 'duration')) return true;
  if (node.op === 'id') {
    const bound = scope.get(node.args as string);
    if (bound?.kind === 'const') return containsTime(bound.value);
  }
  return childNodes(node).some((c) => involvesTime(c, scope));
}

function containsTime(v: ConstValue): boolean {
  return v instanceof TimeConstant || (Array.isArray(v) && v.some(containsTime));
}

const parsedCache = new Map<string, ReturnType<ReturnType<typeof foldEnvironment>['parse']>>();

function evaluateWithLibrary(node: ASTNode, fields: FilterFields, scope: Scope): ConstValue {
  if (node.op === 'value') return node.args;
  if (node.op === 'list' && (node.args as ASTNode[]).every((e) => e.op === 'value')) return (node.args as ASTNode[]).map((e) => e.args);
  const text = celText(node);
  const env = foldEnvironment(fields);
  const key = `${Object.keys(fields).join(',')}\u0000${text}`;
  let program = parsedCache.get(key);
  if (!program) {
    program = env.parse(text);
    if (parsedCache.size > 1000) parsedCache.clear();
    parsedCache.set(key, program);
  }
  const context: Record<string, unknown> = {};
  for (const [name, b] of scope) if (b.kind === 'const') context[name] = b.value;
  try {
    const value = program(context) as ConstValue;
    if (value instanceof Promise) throw new FilterCompileError('asynchronous functions are not supported', node.start);
    return value;
  } catch (err) {
    if (err instanceof FilterCompileError) throw err;
    return new CelErrorValue((err as { summary?: string }).summary ?? (err as Error).message);
  }
}

/** The value of a constant sub-expression (a CelErrorValue when CEL evaluation fails). */
export function foldConstant(node: ASTNode, fields: FilterFields, scope: Scope): ConstValue {
  if (involvesTime(node, scope)) return foldTime(node, fields, scope);
  return evaluateWithLibrary(node, fields, scope);
}

function timeLiteral(kind: 'timestamp' | 'duration', node: ASTNode, fields: FilterFields, scope: Scope): ConstValue {
  const argNode = (node.args as [string, ASTNode[]])[1][0];
  const arg = foldConstant(argNode, fields, scope);
  if (arg instanceof CelErrorValue) return arg;
  if (kind === 'timestamp' && typeof arg === 'bigint') {
    const ns = arg * 1_000_000_000n;
    return timestampInRange(ns) ? new TimeConstant('timestamp', ns) : new CelErrorValue('timestamp out of range');
  }
  if (typeof arg !== 'string') throw new FilterCompileError(`${kind}() of this argument is not supported`, node.start);
  const ns = kind === 'timestamp' ? parseTimestamp(arg) : parseDuration(arg);
  if (ns !== undefined) return new TimeConstant(kind, ns);
  // Like cel-go's literal validators: a malformed literal is a mistake in the filter, not a per-row error.
  const hint =
    kind === 'timestamp'
      ? 'an RFC 3339 timestamp such as 2024-01-02T15:04:05Z, between years 1 and 9999'
      : "a duration such as '90s', '1.5h' or '2h45m' within 10000 years";
  throw new FilterCompileError(`invalid ${kind} '${arg}': expected ${hint}`, argNode.start);
}

function addTimes(op: '+' | '-', a: TimeConstant, b: TimeConstant): ConstValue {
  if (op === '-' && a.kind === 'timestamp' && b.kind === 'timestamp') {
    const d = a.ns - b.ns;
    return d >= -MAX_TIMESTAMP_DIFFERENCE_NS && d <= MAX_TIMESTAMP_DIFFERENCE_NS
      ? new TimeConstant('duration', d)
      : new CelErrorValue('duration out of range');
  }
  const ns = op === '+' ? a.ns + b.ns : a.ns - b.ns;
  const kind = a.kind === 'timestamp' || b.kind === 'timestamp' ? 'timestamp' : 'duration';
  if (op === '-' && b.kind === 'timestamp') return new CelErrorValue('no matching overload');
  if (a.kind === 'timestamp' && b.kind === 'timestamp') return new CelErrorValue('no matching overload');
  const ok = kind === 'timestamp' ? timestampInRange(ns) : durationInRange(ns);
  return ok ? new TimeConstant(kind, ns) : new CelErrorValue(`${kind} out of range`);
}

function foldTime(node: ASTNode, fields: FilterFields, scope: Scope): ConstValue {
  switch (node.op) {
    case 'value':
      return node.args;
    case 'id': {
      const bound = scope.get(node.args as string);
      if (bound?.kind === 'const') return bound.value;
      break;
    }
    case 'list':
      return (node.args as ASTNode[]).map((e) => foldConstant(e, fields, scope));
    case 'call': {
      const [name, args] = node.args as [string, ASTNode[]];
      if ((name === 'timestamp' || name === 'duration') && args.length === 1) return timeLiteral(name, node, fields, scope);
      if (name === 'dyn' && args.length === 1) return foldConstant(args[0], fields, scope);
      break;
    }
    case '+':
    case '-': {
      const [l, r] = node.args as [ASTNode, ASTNode];
      const a = foldConstant(l, fields, scope);
      const b = foldConstant(r, fields, scope);
      if (a instanceof CelErrorValue) return a;
      if (b instanceof CelErrorValue) return b;
      if (a instanceof TimeConstant && b instanceof TimeConstant) return addTimes(node.op, a, b);
      return new CelErrorValue('no matching overload');
    }
    case '?:': {
      const [c, x, y] = node.args as [ASTNode, ASTNode, ASTNode];
      const cond = foldConstant(c, fields, scope);
      if (cond === true) return foldConstant(x, fields, scope);
      if (cond === false) return foldConstant(y, fields, scope);
      return cond instanceof CelErrorValue ? cond : new CelErrorValue('no matching overload');
    }
    case '[]': {
      const [l, r] = node.args as [ASTNode, ASTNode];
      const list = foldConstant(l, fields, scope);
      const index = foldConstant(r, fields, scope);
      if (list instanceof CelErrorValue) return list;
      if (index instanceof CelErrorValue) return index;
      if (Array.isArray(list) && typeof index === 'bigint') {
        return index >= 0n && index < BigInt(list.length) ? list[Number(index)] : new CelErrorValue('index out of range');
      }
      break;
    }
  }
  throw new FilterCompileError(
    `'${celText(node)}' is not supported with timestamps or durations (supported: timestamp(), duration(), +, -, comparisons)`,
    node.start,
  );
}
