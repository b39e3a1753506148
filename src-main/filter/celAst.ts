// Reading the CEL library's AST: children, macro calls, checked types, and
// source text for messages and for folding.
import { serialize, type ASTNode } from '@marcbachmann/cel-js';

/** The macros that bind a variable over a list (`links.exists(l, ...)`). */
export const COMPREHENSIONS: ReadonlySet<string> = new Set(['exists', 'all', 'exists_one', 'map', 'filter']);

// The library's serializer escapes astral characters as UTF-16 surrogate pairs
// (\ud83d\ude00), which its own parser rejects; CEL spells them \U0001f600.
const SURROGATE_PAIR = /(?<!\\)((?:\\\\)*)\\u(d[89ab][0-9a-f]{2})\\u(d[c-f][0-9a-f]{2})/gi;

/** CEL source text of a sub-expression. */
export function celText(node: ASTNode): string {
  return serialize(node).replace(SURROGATE_PAIR, (_, backslashes: string, high: string, low: string) => {
    const codePoint = (parseInt(high, 16) - 0xd800) * 0x400 + (parseInt(low, 16) - 0xdc00) + 0x10000;
    return `${backslashes}\\U${codePoint.toString(16).padStart(8, '0')}`;
  });
}

export function checkedTypeName(node: ASTNode): string | undefined {
  return (node as unknown as { checkedType?: { name?: string } }).checkedType?.name;
}

export function childNodes(node: ASTNode): ASTNode[] {
  const out: ASTNode[] = [];
  const visit = (x: unknown) => {
    if (Array.isArray(x)) x.forEach(visit);
    else if (x && typeof x === 'object' && 'op' in x && 'args' in x) out.push(x as ASTNode);
  };
  visit(node.args);
  return out;
}

/** The macro call `receiver.exists(var, predicate)` (and all, exists_one, map, filter), if node is one. */
export function comprehensionParts(node: ASTNode): { method: string; receiver: ASTNode; variable: string; body: ASTNode[] } | undefined {
  if (node.op !== 'rcall') return undefined;
  const [method, receiver, args] = node.args as [string, ASTNode, ASTNode[]];
  if (!COMPREHENSIONS.has(method) || args.length < 2 || args[0].op !== 'id') return undefined;
  return { method, receiver, variable: args[0].args as string, body: args.slice(1) };
}

/** The operands of a chain of one operator (`a || b || c` parses as `(a || b) || c`). */
export function chain(node: ASTNode, op: '&&' | '||'): ASTNode[] {
  const out: ASTNode[] = [];
  const stack: ASTNode[] = [node];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.op === op) stack.push(...[...(n.args as [ASTNode, ASTNode])].reverse());
    else out.push(n);
  }
  return out;
}
