// Enum values may be written as bare names (`state == ANNOTATION_STATE_OPEN`),
// as strings (`state == 'ANNOTATION_STATE_OPEN'`, the form the web UI and the
// Python client emit) or as numbers (`state == 1`, CEL's own view of proto
// enums). Enum fields are CEL ints, so before type-checking this pass
// replaces each name literal compared with an enum field by its number,
// padded with spaces to the literal's length so every later error still
// points at the right column.
import type { ASTNode } from '@marcbachmann/cel-js';
import { childNodes, comprehensionParts } from './celAst';
import type { FilterFields } from './fields';
import { FilterCompileError } from './filterError';

type EnumValues = Readonly<Record<string, number>>;

const COMPARISONS = new Set(['==', '!=', '<', '<=', '>', '>=', 'in']);

interface Edit {
  start: number;
  end: number;
  text: string;
}

function enumOfField(fields: FilterFields, name: string): EnumValues | undefined {
  if (!Object.hasOwn(fields, name)) return undefined;
  const f = fields[name];
  if (f.kind === 'enum') return f.values;
  if (f.kind === 'scalar' || f.kind === 'relation') return f.enumValues;
  return undefined;
}

export function rewriteEnumLiterals(source: string, root: ASTNode, fields: FilterFields, knownConstants: ReadonlySet<string>): string {
  const edits: Edit[] = [];

  // Scope: comprehension variable -> the messages or relation field it ranges over.
  const enumOf = (node: ASTNode, scope: ReadonlyMap<string, string>): EnumValues | undefined => {
    if (node.op === 'id') {
      const over = scope.get(node.args as string);
      if (over === undefined) return enumOfField(fields, node.args as string);
      // An element of a relation used as a list (`states.exists(s, s == OPEN)`).
      return over && fields[over].kind === 'relation' ? enumOfField(fields, over) : undefined;
    }
    if (node.op === '.') {
      const [target, member] = node.args as [ASTNode, string];
      if (target.op !== 'id') return undefined;
      const relation = scope.get(target.args as string);
      if (!relation) return undefined;
      const f = fields[relation];
      if (f.kind !== 'messages' || !Object.hasOwn(f.members, member)) return undefined;
      return f.members[member].enumValues;
    }
    return undefined;
  };

  const rewriteName = (literal: ASTNode, values: EnumValues, fieldText: string) => {
    let name: string | undefined;
    if (literal.op === 'value' && typeof literal.args === 'string') name = literal.args;
    // A bare name that is not a field or a registered constant (e.g. a name two enums share).
    else if (literal.op === 'id' && !Object.hasOwn(fields, literal.args as string) && !knownConstants.has(literal.args as string)) {
      name = literal.args as string;
    }
    if (name === undefined) return;
    if (!Object.hasOwn(values, name)) {
      const expected = Object.keys(values).join(', ');
      throw new FilterCompileError(`'${name}' is not a value of ${fieldText}; expected one of: ${expected}`, literal.start);
    }
    const text = String(values[name]);
    const width = literal.end - literal.start;
    if (text.length > width) throw new FilterCompileError(`enum value '${name}' cannot be used here`, literal.start);
    edits.push({ start: literal.start, end: literal.end, text: text.padEnd(width, ' ') });
  };

  const walk = (node: ASTNode, scope: ReadonlyMap<string, string>) => {
    if (COMPARISONS.has(node.op)) {
      const [left, right] = node.args as [ASTNode, ASTNode];
      const leftEnum = enumOf(left, scope);
      // `x in relation` compares x with the relation's elements.
      const rightEnum =
        node.op === 'in'
          ? right.op === 'id' && fields[right.args as string]?.kind === 'relation'
            ? enumOf(right, scope)
            : undefined
          : enumOf(right, scope);
      if (leftEnum) {
        const fieldText = source.slice(left.start, left.end);
        if (node.op === 'in' && right.op === 'list') (right.args as ASTNode[]).forEach((e) => rewriteName(e, leftEnum, fieldText));
        else if (node.op !== 'in') rewriteName(right, leftEnum, fieldText);
      } else if (rightEnum) {
        rewriteName(left, rightEnum, source.slice(right.start, right.end));
      }
    }
    const comprehension = comprehensionParts(node);
    if (comprehension) {
      const { receiver, variable, body } = comprehension;
      walk(receiver, scope);
      // The variable shadows any field of the same name; '' marks one that ranges over no messages field.
      const inner = new Map(scope);
      const overField =
        receiver.op === 'id' &&
        !scope.has(receiver.args as string) &&
        Object.hasOwn(fields, receiver.args as string) &&
        (fields[receiver.args as string].kind === 'messages' || fields[receiver.args as string].kind === 'relation');
      inner.set(variable, overField ? (receiver.args as string) : '');
      for (const b of body) walk(b, inner);
      return;
    }
    for (const c of childNodes(node)) walk(c, scope);
  };
  walk(root, new Map());

  if (edits.length === 0) return source;
  edits.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const e of edits) {
    out += source.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + source.slice(at);
}
