// ListArtifacts' archive rule: archived artifacts are left out unless the
// filter says `include_archived == true` (or plain `include_archived`), or
// filters on archived_date, which then decides archival alone.
//
// The first half is the engine's directive mechanism (the include_archived
// directive of artifactListSpecs.ts). The second cannot be a directive: the
// restriction must disappear when the filter merely *reads* archived_date,
// anywhere in it. So the filter is parsed and type-checked by the engine
// (parseAndCheck, the same step compileFilter starts with), and the checked
// AST decides which of the two declarations the list compiles against.
import type { ASTNode } from '@marcbachmann/cel-js';
import { COMPREHENSIONS } from '../../filter/celAst';
import { parseAndCheck } from '../../filter/parseFilter';
import type { ListSpec } from '../../filter/resource';
import { ApiError } from '../../../src-shared/errors';
import { artifactListSpec, artifactListSpecArchiveByFilter } from './artifactListSpecs';

/** The field whose use hands archival over to the filter. */
const GOVERNING_FIELD = 'archived_date';

// The AST walk is written against the CEL library's node shape (op + args),
// not the engine's internal helpers, which are still moving.
function children(node: ASTNode): ASTNode[] {
  const out: ASTNode[] = [];
  const visit = (x: unknown) => {
    if (Array.isArray(x)) x.forEach(visit);
    else if (x && typeof x === 'object' && 'op' in x && 'args' in x) out.push(x as ASTNode);
  };
  visit(node.args);
  return out;
}

/** `receiver.exists(v, body...)` (and all, exists_one, map, filter): its parts, if node is one. */
function comprehension(node: ASTNode): { receiver: ASTNode; variable: string; body: ASTNode[] } | undefined {
  if (node.op !== 'rcall') return undefined;
  const [method, receiver, args] = node.args as [string, ASTNode, ASTNode[]];
  if (!COMPREHENSIONS.has(method) || args.length < 2 || args[0].op !== 'id') return undefined;
  return { receiver, variable: args[0].args as string, body: args.slice(1) };
}

/**
 * Whether a checked filter reads the field `name`: an identifier, not a string
 * literal, a map key (`metadata['archived_date']`, `metadata.archived_date`),
 * a record member (`l.archived_date`) or a comprehension variable that
 * shadows it.
 */
export function readsField(ast: ASTNode, name: string): boolean {
  const visit = (node: ASTNode, shadowed: ReadonlySet<string>): boolean => {
    if (node.op === 'id') return node.args === name && !shadowed.has(name);
    const c = comprehension(node);
    if (c) {
      const inner = new Set(shadowed).add(c.variable);
      return visit(c.receiver, shadowed) || c.body.some((b) => visit(b, inner));
    }
    return children(node).some((n) => visit(n, shadowed));
  };
  return visit(ast, new Set());
}

// Paging repeats the same filter: remember the decision per filter text.
const CACHE_SIZE = 256;
const decisions = new Map<string, boolean>();

/** True when the filter reads archived_date (so it, not the default rule, governs archival). */
export function filterGovernsArchival(filter: string | undefined): boolean {
  // Reading the field needs its name in the text (CEL identifiers have no escapes): most filters stop here, unparsed.
  if (!filter || !filter.includes(GOVERNING_FIELD)) return false;
  const known = decisions.get(filter);
  if (known !== undefined) return known;
  let governs: boolean;
  try {
    governs = readsField(parseAndCheck(artifactListSpec.filterFields, filter).ast, GOVERNING_FIELD);
  } catch (err) {
    // An invalid filter: listPage reports it, after the request's other parameters.
    if (err instanceof ApiError) return false;
    throw err;
  }
  if (decisions.size >= CACHE_SIZE) decisions.delete(decisions.keys().next().value as string);
  decisions.set(filter, governs);
  return governs;
}

/** The declaration ListArtifacts compiles this filter against. */
export function artifactListSpecFor(filter: string | undefined): ListSpec {
  return filterGovernsArchival(filter) ? artifactListSpecArchiveByFilter : artifactListSpec;
}
