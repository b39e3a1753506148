// Relation fields (tag_name, asset_id, folders, ...) are used two ways:
//   as one element, "some element matches":  tag_name == 'x', tag_name.startsWith('a')
//   as the list of elements:                 'x' in tag_name, size(tag_name) == 0,
//                                            tag_name.exists(t, ...), .all(...), .exists_one(...)
// The type-checker declares each relation twice (celEnvironment.ts): under its
// own name with the element type, and under a hidden name (`tag_name[]`, which
// no filter can spell) as a list. Before checking, the list positions (the
// container of `in`, the argument of size(), the range of a comprehension)
// are renamed to the hidden name; after checking the names are restored, and
// the compiler tells the uses apart by their checked type (list<...>).
import type { ASTNode } from '@marcbachmann/cel-js';
import { checkedTypeName, childNodes, comprehensionParts } from './celAst';
import type { FilterFields, RelationField } from './fields';

/** The name a relation is declared under as a list. Not a CEL identifier, so filters cannot name it. */
export function relationListName(name: string): string {
  return `${name}[]`;
}

/**
 * Renames the relation fields in list positions to their list names; returns
 * a function that restores the original names (call it after type-checking).
 */
export function markRelationLists(ast: ASTNode, fields: FilterFields): () => void {
  const renamed: [ASTNode, string][] = [];
  const asList = (node: ASTNode, bound: ReadonlySet<string>) => {
    if (node.op !== 'id') return;
    const name = node.args as string;
    if (bound.has(name) || !Object.hasOwn(fields, name) || fields[name].kind !== 'relation') return;
    renamed.push([node, name]);
    (node as { args: unknown }).args = relationListName(name);
  };
  const visit = (node: ASTNode, bound: ReadonlySet<string>): void => {
    const c = comprehensionParts(node);
    if (c) {
      asList(c.receiver, bound);
      visit(c.receiver, bound);
      const inner = new Set(bound).add(c.variable);
      for (const b of c.body) visit(b, inner);
      return;
    }
    if (node.op === 'in') asList((node.args as [ASTNode, ASTNode])[1], bound);
    else if (node.op === 'call' && node.args[0] === 'size' && (node.args as [string, ASTNode[]])[1].length === 1)
      asList((node.args as [string, ASTNode[]])[1][0], bound);
    else if (node.op === 'rcall' && node.args[0] === 'size' && (node.args as [string, ASTNode, ASTNode[]])[2].length === 0)
      asList((node.args as [string, ASTNode, ASTNode[]])[1], bound);
    for (const child of childNodes(node)) visit(child, bound);
  };
  visit(ast, new Set());
  return () => {
    for (const [node, name] of renamed) (node as { args: unknown }).args = name;
  };
}

/** The relation field a checked node names as a list (`tag_name` in `'x' in tag_name`), if it does. */
export function relationListUse(node: ASTNode, fields: FilterFields, isBound: (name: string) => boolean): RelationField | undefined {
  if (node.op !== 'id') return undefined;
  const name = node.args as string;
  if (isBound(name) || !Object.hasOwn(fields, name)) return undefined;
  const f = fields[name];
  return f.kind === 'relation' && checkedTypeName(node)?.startsWith('list') ? f : undefined;
}
