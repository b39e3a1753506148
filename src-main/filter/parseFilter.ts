// Step one of compiling a filter: enforce the size limit, parse with the CEL
// library (which enforces the structural limits), resolve enum names, and
// type-check against the resource's declaration. Every failure is
// INVALID_ARGUMENT naming the problem and the column.
import type { ASTNode, Environment } from '@marcbachmann/cel-js';
import type { ApiError } from '../../src-shared/errors';
import { enumConstants, filterEnvironment } from './celEnvironment';
import { rewriteEnumLiterals } from './enumLiterals';
import type { FilterFields } from './fields';
import { FilterCompileError, filterError } from './filterError';
import { markRelationLists } from './relationLists';
import { MAX_AST_NODES, MAX_CALL_ARGUMENTS, MAX_FILTER_LENGTH, MAX_LIST_ELEMENTS, MAX_MAP_ENTRIES, MAX_NESTING_DEPTH } from './limits';

export interface CheckedFilter {
  /** The filter text after enum names were replaced by numbers (same length, same columns). */
  readonly source: string;
  /** Type-checked AST: every node carries `checkedType`. */
  readonly ast: ASTNode;
}

interface CelLibraryError {
  code?: string;
  summary?: string;
  message: string;
  range?: { start: number; end: number };
}

const LIMIT_MESSAGES: Record<string, string> = {
  maxAstNodes: `filter is too complex: more than ${MAX_AST_NODES} operators, fields and literals`,
  maxDepth: `filter nests more than ${MAX_NESTING_DEPTH} levels deep`,
  maxListElements: `list literal has more than ${MAX_LIST_ELEMENTS} elements`,
  maxMapEntries: `map literal has more than ${MAX_MAP_ENTRIES} entries`,
  maxCallArguments: `call has more than ${MAX_CALL_ARGUMENTS} arguments`,
};

/** The CEL library's message, reworded where a clearer one exists. */
function describeLibraryError(err: CelLibraryError): string {
  const summary = err.summary ?? err.message.split('\n')[0];
  switch (err.code) {
    case 'unknown_variable':
      return `undeclared reference to '${summary.replace(/^Unknown variable: /, '')}'`;
    case 'limit_exceeded': {
      const key = /Exceeded (\w+)/.exec(summary)?.[1] ?? '';
      return LIMIT_MESSAGES[key] ?? summary;
    }
    case 'no_such_key':
      return `no such field: ${summary.replace(/^No such key: /, '')}`;
    default:
      return summary.replace(/^Unexpected token/, 'syntax error: unexpected token');
  }
}

/**
 * Everything the CEL library throws while parsing or checking is about the
 * filter (including its occasional internal complaints, such as ambiguous
 * overloads for dyn operands), so it becomes INVALID_ARGUMENT.
 */
function toApiError(err: unknown, source: string): ApiError {
  if (err instanceof FilterCompileError) return filterError(err.message, source, err.offset);
  const e = err as CelLibraryError;
  let description = describeLibraryError(e);
  if ((err as Error).name === 'ParseError' && e.code !== 'limit_exceeded' && !description.startsWith('syntax error'))
    description = `syntax error: ${description}`;
  return filterError(description, source, e.range?.start);
}

function parse(env: Environment, source: string, original: string): ReturnType<Environment['parse']> {
  try {
    return env.parse(source);
  } catch (err) {
    throw toApiError(err, original);
  }
}

export function parseAndCheck(fields: FilterFields, filter: string): CheckedFilter {
  if (filter.length > MAX_FILTER_LENGTH) {
    throw filterError(`filter is ${filter.length} characters long; the limit is ${MAX_FILTER_LENGTH}`);
  }
  const env = filterEnvironment(fields);
  let parsed = parse(env, filter, filter);
  let source: string;
  try {
    source = rewriteEnumLiterals(filter, parsed.ast, fields, new Set(enumConstants(fields).keys()));
  } catch (err) {
    throw toApiError(err, filter);
  }
  if (source !== filter) parsed = parse(env, source, filter);
  const restoreNames = markRelationLists(parsed.ast, fields);
  let result: ReturnType<typeof parsed.check>;
  try {
    result = parsed.check();
  } finally {
    restoreNames();
  }
  if (!result.valid) throw toApiError(result.error, filter);
  if (result.type !== 'bool' && result.type !== 'dyn') {
    throw filterError(`filter must be a condition (bool), but it is ${result.type}`, filter, 0);
  }
  return { source, ast: parsed.ast };
}
