// Compiles a type-checked CEL filter to a parameterized SQL condition.
//
// Every boolean sub-expression is compiled to a Condition with two rails
// (operands.ts): `pos` holds exactly where CEL says true, `neg` exactly where
// it says false. && / || / ! / ?: combine rails (so negation is pushed to the
// leaves), and a row matches the filter iff `pos` is TRUE. CEL errors (an
// absent field under `<`, `1/0`, a missing metadata key) are on neither rail,
// which reproduces CEL's commutative error logic: `err || true` is true,
// `err && false` is false, `!err` is an error.
//
// Leaves are comparisons, `in`, string functions, has() and bool values.
// Relation fields in a leaf mean "some element satisfies the leaf" (the leaf
// P(tag_name) reads as tag_name.exists(x, P(x))), so `!(tag_name == 'x')`
// is "no tag equals x" and `tag_name != 'x'` is "some tag differs from x".
// A metadata lookup `metadata['k']` in a leaf is an error when the key is
// absent, exactly like a CEL map.
import type { ASTNode } from '@marcbachmann/cel-js';
import { celText, chain, checkedTypeName, childNodes, comprehensionParts } from './celAst';
import { compare, inConstantList, inElements, NeedsFolding, type ComparisonOp } from './comparisons';
import { foldConstant, isConstant, type Binding, type Scope } from './constantFolding';
import { CelErrorValue, familyOfConst, type ConstValue } from './constants';
import { constParam, mapValueOperand, valueOperand, visibleEntry } from './fieldOperands';
import type { FilterFields, MapField, MessagesField, RelationField, RelationSource } from './fields';
import { FilterCompileError } from './filterError';
import {
  ALWAYS_ERROR,
  ALWAYS_FALSE,
  ALWAYS_TRUE,
  conditionAsValue,
  constant,
  negate,
  notFalse,
  valueAsCondition,
  type Condition,
  type Operand,
  type ValueOperand,
} from './operands';
import { quantifyElements, quantifyRelated, quantifyUnrolled, type ElementSource } from './quantifiers';
import { compileRegex } from './regexFunction';
import { relationListUse } from './relationLists';
import { AliasAllocator, countRelated, noRelated, someRelated, withAliases, type Aliases } from './relatedRows';
import { and, join, or, param, raw, sql, type Sql, TRUE } from './sql';
import { stringFunction, stringSize, type StringFunction } from './stringFunctions';
import { timeArithmetic } from './timeArithmetic';

const COMPARISON_OPS = new Set(['==', '!=', '<', '<=', '>', '>=']);
const STRING_FUNCTIONS = new Set(['startsWith', 'endsWith', 'contains', 'matches']);

/** The source (and its aliases) chosen for each relation field of the leaf being compiled. */
type RelationChoice = ReadonlyMap<string, { source: RelationSource; aliases: Aliases }>;

/** A metadata-style lookup in the leaf being compiled: field + constant key -> aliases of its child row. */
interface Lookup {
  readonly fieldName: string;
  readonly field: MapField;
  readonly key: string;
  readonly aliases: Aliases;
}

interface LeafBindings {
  readonly relations: RelationChoice;
  readonly lookups: ReadonlyMap<string, Lookup>;
}

const NO_BINDINGS: LeafBindings = { relations: new Map(), lookups: new Map() };

function lookupKey(fieldName: string, key: string): string {
  return `${fieldName}\u0000${key}`;
}

function describe(node: ASTNode): string {
  const text = celText(node);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

export class CelToSql {
  private readonly fields: FilterFields;
  private readonly aliases = new AliasAllocator();

  constructor(fields: FilterFields) {
    this.fields = fields;
  }

  private unsupported(what: string, node: ASTNode): FilterCompileError {
    return new FilterCompileError(what, node.start);
  }

  private field(name: string, scope: Scope) {
    if (scope.has(name) || !Object.hasOwn(this.fields, name)) return undefined;
    return this.fields[name];
  }

  /** The relation field the node names as a list ('x' in tag_name, size(tag_name), tag_name.exists(...)); see relationLists.ts. */
  private relationList(node: ASTNode, scope: Scope): RelationField | undefined {
    return relationListUse(node, this.fields, (name) => scope.has(name));
  }

  // -------------------------------------------------------------------------
  // Conditions

  /**
   * `inherited`: the relation elements and lookups already bound by an
   * enclosing leaf, when this condition is a value inside it
   * (`pending == (tag_name == 'a')` has one leaf: some tag e has pending == (e == 'a')).
   */
  condition(node: ASTNode, scope: Scope, inherited: LeafBindings = NO_BINDINGS): Condition {
    switch (node.op) {
      case '&&': {
        // A chain a && b && c ... is compiled as one balanced conjunction.
        const parts = chain(node, '&&').map((n) => this.condition(n, scope, inherited));
        return { pos: and(...parts.map((p) => p.pos)), neg: or(...parts.map((p) => p.neg)), total: parts.every((p) => p.total) };
      }
      case '||': {
        const parts = chain(node, '||').map((n) => this.condition(n, scope, inherited));
        return { pos: or(...parts.map((p) => p.pos)), neg: and(...parts.map((p) => p.neg)), total: parts.every((p) => p.total) };
      }
      case '!_':
        return negate(this.condition(node.args as ASTNode, scope, inherited));
      case '?:': {
        const [c, x, y] = (node.args as [ASTNode, ASTNode, ASTNode]).map((n) => this.condition(n, scope, inherited));
        return { pos: or(and(c.pos, x.pos), and(c.neg, y.pos)), neg: or(and(c.pos, x.neg), and(c.neg, y.neg)) };
      }
      case 'value':
        return node.args === true ? ALWAYS_TRUE : node.args === false ? ALWAYS_FALSE : ALWAYS_ERROR;
    }
    const comprehension = comprehensionParts(node);
    if (comprehension) return this.comprehension(node, comprehension, scope, inherited);
    return this.leaf(node, scope, inherited);
  }

  private comprehension(
    node: ASTNode,
    c: NonNullable<ReturnType<typeof comprehensionParts>>,
    scope: Scope,
    inherited: LeafBindings,
  ): Condition {
    if (c.method !== 'exists' && c.method !== 'all' && c.method !== 'exists_one') {
      throw this.unsupported(`${c.method}() can only be used on constant lists`, node);
    }
    if (c.body.length !== 1) throw this.unsupported(`${c.method}() takes a variable and a condition`, node);
    const receiver = c.receiver;
    if (receiver.op === 'id') {
      const f = this.field(receiver.args as string, scope);
      if (f?.kind === 'messages')
        return this.messagesComprehension(c.method, f, receiver.args as string, c.variable, c.body[0], scope, inherited);
      const relation = this.relationList(receiver, scope);
      if (relation) {
        return quantifyElements(
          c.method,
          this.elementSources(relation, (element) => this.condition(c.body[0], new Map(scope).set(c.variable, element), inherited)),
        );
      }
    }
    if (!isConstant(receiver, this.fields, scope)) {
      throw this.unsupported(
        `${c.method}() is supported over list literals and relation fields, not over '${describe(receiver)}'`,
        receiver,
      );
    }
    const list = foldConstant(receiver, this.fields, scope);
    if (list instanceof CelErrorValue) return ALWAYS_ERROR;
    const elements: ConstValue[] = Array.isArray(list) ? list : list instanceof Map ? [...list.keys()] : Object.keys(list as object);
    const parts = elements.map((e) => this.condition(c.body[0], new Map(scope).set(c.variable, { kind: 'const', value: e }), inherited));
    return quantifyUnrolled(c.method, parts);
  }

  private messagesComprehension(
    method: string,
    f: MessagesField,
    fieldName: string,
    variable: string,
    body: ASTNode,
    scope: Scope,
    inherited: LeafBindings,
  ): Condition {
    const aliases = this.aliases.allocate(f.rows.from);
    const inner = this.condition(body, new Map(scope).set(variable, { kind: 'message', field: fieldName, aliases }), inherited);
    return quantifyRelated(method, f.rows, aliases, inner);
  }

  /**
   * Each source of a relation used as a list, with the condition compiled for
   * one of its elements (given the element's binding).
   */
  private elementSources(f: RelationField, conditionFor: (element: Binding) => Condition): ElementSource[] {
    return f.sources.map((source): ElementSource => {
      const aliases = source.rows ? this.aliases.allocate(source.rows.from) : new Map<string, string>();
      const inner = conditionFor({ kind: 'element', type: f.type, sql: source.value, aliases });
      return source.rows ? { rows: source.rows, aliases, inner } : { value: raw(source.value), inner };
    });
  }

  /** A leaf: wraps relation and lookup bindings around the leaf's own comparison. */
  private leaf(node: ASTNode, scope: Scope, inherited: LeafBindings): Condition {
    const special = this.presenceTest(node, scope);
    if (special) return special;
    const relations: string[] = [];
    const lookups: { fieldName: string; field: MapField; key: string }[] = [];
    this.collectBindings(node, scope, relations, lookups);
    const newRelations = relations.filter((r) => !inherited.relations.has(r));
    const newLookups = lookups.filter((l) => !inherited.lookups.has(lookupKey(l.fieldName, l.key)));
    return this.wrapRelations(node, scope, newRelations, 0, new Map(inherited.relations), newLookups, inherited.lookups);
  }

  private wrapRelations(
    node: ASTNode,
    scope: Scope,
    relations: readonly string[],
    index: number,
    chosen: Map<string, { source: RelationSource; aliases: Aliases }>,
    lookups: readonly { fieldName: string; field: MapField; key: string }[],
    boundLookups: ReadonlyMap<string, Lookup>,
  ): Condition {
    if (index === relations.length) return this.wrapLookups(node, scope, chosen, lookups, 0, new Map(boundLookups));
    const name = relations[index];
    const f = this.fields[name] as RelationField;
    const pos: Sql[] = [];
    const neg: Sql[] = [];
    for (const source of f.sources) {
      const aliases = source.rows ? this.aliases.allocate(source.rows.from) : new Map<string, string>();
      const inner = this.wrapRelations(
        node,
        scope,
        relations,
        index + 1,
        new Map(chosen).set(name, { source, aliases }),
        lookups,
        boundLookups,
      );
      if (source.rows) {
        pos.push(someRelated(source.rows, aliases, inner.pos));
        neg.push(noRelated(source.rows, aliases, notFalse(inner)));
      } else {
        // A value of the row itself is one element, or none when NULL.
        const value = raw(source.value);
        pos.push(and(sql`${value} IS NOT NULL`, inner.pos));
        neg.push(or(sql`${value} IS NULL`, inner.neg));
      }
    }
    // "Some element" over the union of the sources; no sources means no elements.
    return { pos: or(...pos), neg: and(...neg) };
  }

  private wrapLookups(
    node: ASTNode,
    scope: Scope,
    relations: RelationChoice,
    lookups: readonly { fieldName: string; field: MapField; key: string }[],
    index: number,
    bound: Map<string, Lookup>,
  ): Condition {
    if (index === lookups.length) return this.leafBody(node, scope, { relations, lookups: bound });
    const { fieldName, field, key } = lookups[index];
    const aliases = this.aliases.allocate(field.rows.from);
    const inner = this.wrapLookups(
      node,
      scope,
      relations,
      lookups,
      index + 1,
      new Map(bound).set(lookupKey(fieldName, key), { fieldName, field, key, aliases }),
    );
    // A missing key is an error: both rails need the entry to exist. (Every rail
    // of the leaf also requires one of the value's declared type tags, so
    // entries of other types are missing too, without a separate check.)
    const entry = sql`${withAliases(field.key, aliases)} = ${param(key)}`;
    return { pos: someRelated(field.rows, aliases, and(entry, inner.pos)), neg: someRelated(field.rows, aliases, and(entry, inner.neg)) };
  }

  /** Finds the relation fields and constant-key map lookups a leaf reads (not inside nested comprehensions). */
  private collectBindings(
    node: ASTNode,
    scope: Scope,
    relations: string[],
    lookups: { fieldName: string; field: MapField; key: string }[],
  ): void {
    if (comprehensionParts(node)) return;
    if (node.op === 'id') {
      const f = this.field(node.args as string, scope);
      if (f?.kind === 'relation' && !this.relationList(node, scope) && !relations.includes(node.args as string))
        relations.push(node.args as string);
      return;
    }
    const lookup = this.lookupTarget(node, scope);
    if (lookup) {
      if (!lookups.some((l) => l.fieldName === lookup.fieldName && l.key === lookup.key)) lookups.push(lookup);
      return;
    }
    for (const c of childNodes(node)) this.collectBindings(c, scope, relations, lookups);
  }

  /** `m['key']` or `m.key` on a map field, with the key folded to a constant string. */
  private lookupTarget(node: ASTNode, scope: Scope): { fieldName: string; field: MapField; key: string } | undefined {
    if (node.op !== '[]' && node.op !== '.') return undefined;
    const base = (node.args as [ASTNode, unknown])[0];
    if (base.op !== 'id') return undefined;
    const f = this.field(base.args as string, scope);
    if (f?.kind !== 'map') return undefined;
    let key: ConstValue;
    if (node.op === '.') key = (node.args as [ASTNode, string])[1];
    else {
      const keyNode = (node.args as [ASTNode, ASTNode])[1];
      if (!isConstant(keyNode, this.fields, scope))
        throw this.unsupported(`the key of ${base.args as string}[...] must be a constant`, keyNode);
      key = foldConstant(keyNode, this.fields, scope);
    }
    if (typeof key !== 'string') throw this.unsupported(`the key of ${base.args as string}[...] must be a string`, node);
    return { fieldName: base.args as string, field: f, key };
  }

  /** `'k' in metadata` and `has(metadata.k)` / `has(link.member)`: presence tests, never errors. */
  private presenceTest(node: ASTNode, scope: Scope): Condition | undefined {
    if (node.op === 'in') {
      const [keyNode, mapNode] = node.args as [ASTNode, ASTNode];
      if (mapNode.op !== 'id') return undefined;
      const f = this.field(mapNode.args as string, scope);
      if (f?.kind !== 'map') return undefined;
      if (!isConstant(keyNode, this.fields, scope))
        throw this.unsupported(`the key tested with 'in ${mapNode.args as string}' must be a constant`, keyNode);
      const key = foldConstant(keyNode, this.fields, scope);
      if (key instanceof CelErrorValue) return ALWAYS_ERROR;
      if (typeof key !== 'string') return ALWAYS_FALSE;
      return this.keyPresence(f, key);
    }
    if (node.op === 'call' && node.args[0] === 'has') {
      const arg = (node.args as [string, ASTNode[]])[1][0];
      if (arg.op !== '.') throw this.unsupported('has() needs a field selection such as has(metadata.key)', node);
      const [base, member] = arg.args as [ASTNode, string];
      if (base.op === 'id') {
        const bound = scope.get(base.args as string);
        if (bound?.kind === 'message') {
          const spec = (this.fields[bound.field] as MessagesField).members[member];
          if (!spec) throw this.unsupported(`no such field: ${member}`, arg);
          if (!spec.nullable) return ALWAYS_TRUE;
          const v = withAliases(spec.sql, bound.aliases);
          return { pos: sql`${v} IS NOT NULL`, neg: sql`${v} IS NULL` };
        }
        const f = this.field(base.args as string, scope);
        if (f?.kind === 'map') return this.keyPresence(f, member);
      }
      if (isConstant(arg, this.fields, scope)) return valueAsCondition(constant(foldConstant(node, this.fields, scope)));
      throw this.unsupported(`has() is supported on map fields and relation records, not on '${describe(arg)}'`, node);
    }
    return undefined;
  }

  private keyPresence(f: MapField, key: string): Condition {
    const aliases = this.aliases.allocate(f.rows.from);
    const entry = and(sql`${withAliases(f.key, aliases)} = ${param(key)}`, visibleEntry(f, aliases));
    return { pos: someRelated(f.rows, aliases, entry), neg: noRelated(f.rows, aliases, entry) };
  }

  /** The leaf itself, with its relations and lookups bound to aliased child rows. */
  private leafBody(node: ASTNode, scope: Scope, bindings: LeafBindings): Condition {
    if (COMPARISON_OPS.has(node.op)) {
      const [l, r] = node.args as [ASTNode, ASTNode];
      const a = this.value(l, scope, bindings);
      const b = this.value(r, scope, bindings);
      this.checkOptionalFieldComparison(a, b, r, node);
      this.checkOptionalFieldComparison(b, a, l, node);
      try {
        return compare(a, node.op as ComparisonOp, b);
      } catch (err) {
        if (err instanceof NeedsFolding) return valueAsCondition(constant(foldConstant(node, this.fields, scope)));
        throw err;
      }
    }
    if (node.op === 'in') return this.membership(node, scope, bindings);
    if (node.op === 'rcall' && STRING_FUNCTIONS.has(node.args[0] as string)) {
      const [fn, receiverNode, argNodes] = node.args as [StringFunction, ASTNode, ASTNode[]];
      const receiver = this.value(receiverNode, scope, bindings);
      const arg = this.value(argNodes[0], scope, bindings);
      this.checkOptionalFieldUse(receiver, 'string', `${fn}()`, receiverNode);
      if (fn === 'matches' && arg.kind === 'const' && typeof arg.value === 'string') {
        const compiled = compileRegex(arg.value);
        if (typeof compiled === 'string') throw this.unsupported(compiled, argNodes[0]);
      }
      return stringFunction(fn, receiver, arg);
    }
    const value = this.value(node, scope, bindings);
    this.checkOptionalFieldUse(value, 'bool', 'a condition', node);
    return valueAsCondition(value);
  }

  /** `run_id == 1`: an optional field (dyn to the type-checker) against a literal of another type. */
  private checkOptionalFieldComparison(field: Operand, other: Operand, otherNode: ASTNode, node: ASTNode): void {
    if (field.kind !== 'value' || !field.declaredType || other.kind !== 'const' || otherNode.op !== 'value') return;
    const family = familyOfConst(other.value);
    const ordering = node.op !== '==' && node.op !== '!=';
    if (family === field.family || (family === 'null' && !ordering)) return;
    const otherType = family === 'number' ? (typeof other.value === 'number' ? 'double' : 'int') : family === 'null' ? 'null' : family;
    throw this.unsupported(`no such overload: ${field.declaredType} ${node.op} ${otherType}`, node);
  }

  private checkOptionalFieldUse(o: Operand, family: ValueOperand['family'], use: string, node: ASTNode): void {
    if (o.kind === 'value' && o.declaredType && o.family !== family) {
      throw this.unsupported(`'${describe(node)}' is ${o.declaredType}; it cannot be used in ${use}`, node);
    }
  }

  private membership(node: ASTNode, scope: Scope, bindings: LeafBindings): Condition {
    const [l, r] = node.args as [ASTNode, ASTNode];
    const x = this.value(l, scope, bindings);
    const relation = this.relationList(r, scope);
    if (relation) return this.relationMembership(x, relation);
    if (isConstant(r, this.fields, scope)) {
      const container = foldConstant(r, this.fields, scope);
      if (container instanceof CelErrorValue) return ALWAYS_ERROR;
      if (x.kind === 'const' && familyOfConst(container) !== 'list') {
        return valueAsCondition(constant(foldConstant(node, this.fields, scope)));
      }
      if (Array.isArray(container)) {
        try {
          return inConstantList(x, container);
        } catch (err) {
          if (err instanceof NeedsFolding && x.kind === 'const') return valueAsCondition(constant(foldConstant(node, this.fields, scope)));
          throw err;
        }
      }
      const keys = container instanceof Map ? [...container.keys()] : Object.keys(container as object);
      return inConstantList(x, keys);
    }
    if (r.op === 'list')
      return inElements(
        x,
        (r.args as ASTNode[]).map((e) => this.value(e, scope, bindings)),
      );
    throw this.unsupported(`'in' is supported with list literals and map fields, not with '${describe(r)}'`, r);
  }

  /** `x in tag_name`: some element equals x (an error when x is, even with no elements). */
  private relationMembership(x: Operand, f: RelationField): Condition {
    const some = quantifyElements(
      'exists',
      this.elementSources(f, (e) => compare(x, '==', this.elementOperand(e))),
    );
    if (x.kind === 'const') return x.value instanceof CelErrorValue ? ALWAYS_ERROR : some;
    const self = compare(x, '==', x);
    return { pos: some.pos, neg: and(some.neg, or(self.pos, self.neg)) };
  }

  private elementOperand(e: Binding): ValueOperand {
    if (e.kind !== 'element') throw new Error('not an element binding');
    return valueOperand({ type: e.type, sql: e.sql }, e.aliases);
  }

  /** `size(tag_name)`: how many elements the relation has, over all its sources. */
  private relationSize(f: RelationField): ValueOperand {
    const counts = f.sources.map((source) => {
      if (!source.rows) return sql`(${raw(source.value)} IS NOT NULL)`;
      return countRelated(source.rows, this.aliases.allocate(source.rows.from), TRUE);
    });
    // A SQL expression even without sources: a constant would be folded by evaluating the filter text.
    const total = counts.length === 0 ? raw('0') : counts.length === 1 ? counts[0] : sql`(${join(counts, ' + ')})`;
    return { kind: 'value', family: 'number', numeric: 'int', sql: total, nsOffset: 0n, onNull: 'never' };
  }

  // -------------------------------------------------------------------------
  // Values

  private value(node: ASTNode, scope: Scope, bindings: LeafBindings): Operand {
    if (isConstant(node, this.fields, scope)) return constant(foldConstant(node, this.fields, scope));
    switch (node.op) {
      case 'id':
        return this.identifier(node, scope, bindings);
      case '.':
      case '[]':
        return this.selection(node, scope, bindings);
      case '+':
      case '-': {
        const [l, r] = (node.args as [ASTNode, ASTNode]).map((n) => this.value(n, scope, bindings));
        if (l.kind !== 'dyn' && r.kind !== 'dyn') {
          const result = timeArithmetic(node.op, l, r);
          if (result) return result;
        }
        throw this.unsupported(
          `arithmetic on fields is not supported in filters (only timestamp and duration ${node.op} duration): '${describe(node)}'`,
          node,
        );
      }
      case 'call':
      case 'rcall':
        return this.call(node, scope, bindings);
      case '?:':
        return this.ternaryValue(node, scope, bindings);
    }
    if (
      checkedTypeName(node) === 'bool' ||
      COMPARISON_OPS.has(node.op) ||
      node.op === '!_' ||
      node.op === '&&' ||
      node.op === '||' ||
      node.op === 'in'
    ) {
      // A condition used as a value (`pending == (name == 'x')`), inside this leaf.
      return conditionAsValue(this.condition(node, scope, bindings));
    }
    throw this.unsupported(`'${describe(node)}' is not supported in filters`, node);
  }

  private identifier(node: ASTNode, scope: Scope, bindings: LeafBindings): Operand {
    const name = node.args as string;
    const bound = scope.get(name);
    if (bound?.kind === 'const') return constant(bound.value);
    if (bound?.kind === 'message') throw this.unsupported(`'${name}' is a record; compare one of its fields, e.g. ${name}.<field>`, node);
    if (bound?.kind === 'element') return this.elementOperand(bound);
    const f = this.fields[name];
    switch (f.kind) {
      case 'scalar':
        return valueOperand(f, new Map());
      case 'enum':
        return valueOperand({ type: 'int', sql: f.sql, nullable: f.nullable }, new Map());
      case 'relation': {
        if (this.relationList(node, scope)) {
          throw this.unsupported(
            `'${name}' is a list here; use 'x in ${name}', size(${name}), ${name}.exists(x, ...), ${name}.all(x, ...) or ${name}.exists_one(x, ...)`,
            node,
          );
        }
        const choice = bindings.relations.get(name);
        if (!choice) throw this.unsupported(`'${name}' cannot be used here`, node);
        return valueOperand({ type: f.type, sql: choice.source.value }, choice.aliases);
      }
      case 'map':
        throw this.unsupported(`'${name}' is a map; use ${name}['key'], ${name}.key, 'key' in ${name} or has(${name}.key)`, node);
      case 'messages':
        throw this.unsupported(
          `'${name}' is a list of records; use ${name}.exists(x, ...), ${name}.all(x, ...) or ${name}.exists_one(x, ...)`,
          node,
        );
      case 'directive':
        throw this.unsupported(`'${name}' can only be used as a top-level condition, e.g. '${name} == true'`, node);
    }
  }

  private selection(node: ASTNode, scope: Scope, bindings: LeafBindings): Operand {
    const lookup = this.lookupTarget(node, scope);
    if (lookup) {
      const bound = bindings.lookups.get(lookupKey(lookup.fieldName, lookup.key));
      if (!bound) throw this.unsupported(`'${describe(node)}' cannot be used here`, node);
      return mapValueOperand(bound.field, bound.aliases);
    }
    const base = (node.args as [ASTNode, unknown])[0];
    if (node.op === '.' && base.op === 'id') {
      const bound = scope.get(base.args as string);
      if (bound?.kind === 'message') {
        const member = (node.args as [ASTNode, string])[1];
        const spec = (this.fields[bound.field] as MessagesField).members[member];
        if (!spec) throw this.unsupported(`no such field: ${member}`, node);
        return valueOperand(spec, bound.aliases);
      }
    }
    throw this.unsupported(`'${describe(node)}' is not supported in filters`, node);
  }

  private call(node: ASTNode, scope: Scope, bindings: LeafBindings): Operand {
    const name = (node.args as [string, ...unknown[]])[0];
    const args =
      node.op === 'call'
        ? (node.args as [string, ASTNode[]])[1]
        : [(node.args as [string, ASTNode, ASTNode[]])[1], ...(node.args as [string, ASTNode, ASTNode[]])[2]];
    if (name === 'size' && args.length === 1) {
      const relation = this.relationList(args[0], scope);
      if (relation) return this.relationSize(relation);
      const arg = this.value(args[0], scope, bindings);
      this.checkOptionalFieldUse(arg, 'string', 'size()', args[0]);
      return stringSize(arg) ?? constant(new CelErrorValue('no matching overload for size()'));
    }
    if (name === 'dyn' && args.length === 1) return this.value(args[0], scope, bindings);
    if (checkedTypeName(node) === 'bool') return conditionAsValue(this.condition(node, scope, bindings));
    throw this.unsupported(`${name}() of a field is not supported in filters`, node);
  }

  /** `c ? a : b` as a value: CASE WHEN, with the condition's errors (neither rail) as evaluation failures. */
  private ternaryValue(node: ASTNode, scope: Scope, bindings: LeafBindings): Operand {
    const [c, x, y] = node.args as [ASTNode, ASTNode, ASTNode];
    if (checkedTypeName(node) === 'bool') return conditionAsValue(this.condition(node, scope, bindings));
    const cond = this.condition(c, scope, bindings);
    const a = this.value(x, scope, bindings);
    const b = this.value(y, scope, bindings);
    const family = (o: Operand) => (o.kind === 'const' ? familyOfConst(o.value) : o.kind === 'value' ? o.family : 'dyn');
    const scalar = (o: Operand) =>
      ['string', 'number', 'bool'].includes(family(o)) && !(o.kind === 'const' && typeof o.value === 'number' && Number.isNaN(o.value));
    if (!scalar(a) || !scalar(b) || family(a) !== family(b)) {
      throw this.unsupported(`conditional values of this kind are not supported in filters: '${describe(node)}'`, node);
    }
    const branch = (o: Operand) => {
      if (o.kind === 'const') return { sql: param(constParam(o.value)), ok: TRUE, nullable: false };
      const v = o as ValueOperand;
      return {
        sql: v.sql,
        ok: and(v.guard ?? TRUE, v.onNull === 'error' ? sql`${v.sql} IS NOT NULL` : TRUE),
        nullable: v.onNull === 'null',
      };
    };
    const ba = branch(a);
    const bb = branch(b);
    return {
      kind: 'value',
      family: family(a) as 'string' | 'number' | 'bool',
      numeric: a.kind === 'value' ? a.numeric : b.kind === 'value' ? b.numeric : undefined,
      sql: sql`CASE WHEN ${cond.pos} THEN ${ba.sql} WHEN ${cond.neg} THEN ${bb.sql} END`,
      nsOffset: 0n,
      onNull: ba.nullable || bb.nullable ? 'null' : 'never',
      // Defined where the condition is and the chosen branch evaluates.
      guard: or(and(cond.pos, ba.ok), and(cond.neg, bb.ok)),
    };
  }
}
